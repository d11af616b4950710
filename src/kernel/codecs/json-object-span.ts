/**
 * The text of the JSON object opening at `text[start]` (must be `{`) up to its matching `}`, skipping braces in
 * strings, or undefined when it never closes. Lets prompt codecs ignore what a model writes after the object.
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
