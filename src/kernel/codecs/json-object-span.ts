/**
 * The text of the JSON object that opens at `text[start]` (which must be `{`), up to its matching `}`, or
 * undefined when the object never closes. Braces inside strings are skipped. Prompt codecs use it to read one
 * object and ignore what a model writes after it, such as an invented `Observation:` or a closing remark.
 * @example jsonObjectSpan('{"a":"}"} thanks', 0) // '{"a":"}"}'
 */
export function jsonObjectSpan(text: string, start = 0): string | undefined {
  if (text[start] !== "{") return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === "{") {
      depth++;
    } else if (char === "}" && --depth === 0) {
      return text.slice(start, i + 1);
    }
  }
  return undefined;
}
