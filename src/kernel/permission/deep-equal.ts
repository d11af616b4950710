/**
 * Structural equality with dequal semantics: primitives by `===` (NaN equals NaN), arrays element-wise, plain
 * objects by own enumerable keys, and objects only when they share a constructor. Dates, RegExps, Maps and Sets
 * compare by content. Cycles are not supported (policy inputs are JSON values).
 * @example deepEqual({ a: [1, NaN] }, { a: [1, NaN] }) // true
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return typeof a === "number" && typeof b === "number" && Number.isNaN(a) && Number.isNaN(b);
  }
  if (a.constructor !== b.constructor) return false;
  if (a instanceof Date) return a.getTime() === (b as Date).getTime();
  if (a instanceof RegExp) return String(a) === String(b);
  if (Array.isArray(a)) return arraysEqual(a, b as unknown[]);
  if (a instanceof Map) return mapsEqual(a, b as Map<unknown, unknown>);
  if (a instanceof Set) return setsEqual(a, b as Set<unknown>);
  return objectsEqual(a as Record<string, unknown>, b as Record<string, unknown>);
}

function arraysEqual(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
}

function objectsEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
}

function setsEqual(a: Set<unknown>, b: Set<unknown>): boolean {
  if (a.size !== b.size) return false;
  // Members that are objects may be equal without being identical, so fall back to a deep search.
  return [...a].every((item) => b.has(item) || [...b].some((other) => deepEqual(item, other)));
}

function mapsEqual(a: Map<unknown, unknown>, b: Map<unknown, unknown>): boolean {
  if (a.size !== b.size) return false;
  return [...a].every(([key, value]) => {
    if (b.has(key)) return deepEqual(value, b.get(key));
    const match = [...b.keys()].find((other) => deepEqual(key, other));
    return match !== undefined && deepEqual(value, b.get(match));
  });
}
