/**
 * Where a value stops being plain data (JSON-like: no functions, class instances, symbols or bigints), as a path
 * such as `options.retryOn`; undefined when it is plain throughout. Durable references carry only plain data.
 */
export function nonPlainPath(value: unknown, path = "value"): string | undefined {
  if (value === null || value === undefined) return undefined;
  const kind = typeof value;
  if (kind === "string" || kind === "boolean") return undefined;
  if (kind === "number") return Number.isFinite(value) ? undefined : path;
  if (kind !== "object") return path;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nonPlainPath(item, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return path;
  for (const [key, item] of Object.entries(value)) {
    const found = nonPlainPath(item, `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}

/** Whether a value is plain data throughout. */
export function isPlainData(value: unknown): boolean {
  return nonPlainPath(value) === undefined;
}
