/** `{ [key]: value }`, or `{}` when the value is undefined: payloads never hold an explicit `undefined`. */
export function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
