const SAFE = /^[\w@%+=:,./-]+$/;

/**
 * Quotes a word for a POSIX shell when it needs it, so a printed command can be pasted back as is.
 * @example shellQuote("call_1") // call_1
 * @example shellQuote("it's") // 'it'\''s'
 */
export function shellQuote(word: string): string {
  if (SAFE.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
