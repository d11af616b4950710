/**
 * `JSON.stringify` with object keys sorted (by UTF-16 code unit) at every depth, so equal values give equal text for
 * hashing. Otherwise like `JSON.stringify` (`toJSON`, dropped `undefined`, non-finite → `null`), but a top-level
 * value with no JSON form gives `"null"`. Throws `TypeError` on a bigint or a cycle.
 */
export function stableStringify(value: unknown): string {
  return stringifyValue(value, new Set()) ?? "null";
}

/** The JSON text of `value`, or undefined when it has none (it is then skipped in objects). */
function stringifyValue(value: unknown, ancestors: Set<object>): string | undefined {
  const json = withToJson(value);
  if (json === null) return "null";
  switch (typeof json) {
    case "string":
    case "boolean":
      return JSON.stringify(json);
    case "number":
      return Number.isFinite(json) ? JSON.stringify(json) : "null";
    case "bigint":
      throw new TypeError("stableStringify cannot serialise a bigint");
    case "object":
      return stringifyObject(json, ancestors);
    default:
      return undefined; // undefined, function, symbol
  }
}

function withToJson(value: unknown): unknown {
  const toJSON = (value as { toJSON?: unknown } | null | undefined)?.toJSON;
  return typeof toJSON === "function" ? (toJSON as () => unknown).call(value) : value;
}

function stringifyObject(value: object, ancestors: Set<object>): string {
  if (ancestors.has(value)) throw new TypeError("stableStringify cannot serialise a circular structure");
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      return `[${value.map((item: unknown) => stringifyValue(item, ancestors) ?? "null").join(",")}]`;
    }
    const record = value as Record<string, unknown>;
    const members: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const text = stringifyValue(record[key], ancestors);
      if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
    }
    return `{${members.join(",")}}`;
  } finally {
    ancestors.delete(value);
  }
}
