/** A parsed CSV file: the header row and the data rows (each as long as it was written). */
export interface CsvTable {
  header: string[];
  rows: string[][];
}

/** The reader's position inside the text: the record and field being built. */
interface CsvCursor {
  records: string[][];
  record: string[];
  field: string;
  quoted: boolean;
}

function endField(cursor: CsvCursor): void {
  cursor.record.push(cursor.field);
  cursor.field = "";
}

function endRecord(cursor: CsvCursor): void {
  endField(cursor);
  cursor.records.push(cursor.record);
  cursor.record = [];
}

/** Consumes the character at `i` and returns how many characters were used (2 for `""` and CRLF). */
function step(cursor: CsvCursor, text: string, i: number): number {
  const char = text[i];
  const next = text[i + 1];
  if (cursor.quoted) {
    if (char === '"' && next === '"') cursor.field += '"';
    else if (char === '"') cursor.quoted = false;
    else cursor.field += char;
    return char === '"' && next === '"' ? 2 : 1;
  }
  if (char === '"' && cursor.field === "") cursor.quoted = true;
  else if (char === ",") endField(cursor);
  else if (char === "\n" || char === "\r") endRecord(cursor);
  else cursor.field += char;
  return char === "\r" && next === "\n" ? 2 : 1;
}

/** Splits CSV text into records of fields, honouring quoted fields ("a, b", "say ""hi""") and CRLF. */
function parseRecords(text: string): string[][] {
  const cursor: CsvCursor = { records: [], record: [], field: "", quoted: false };
  for (let i = 0; i < text.length;) i += step(cursor, text, i);
  if (cursor.field !== "" || cursor.record.length > 0) endRecord(cursor);
  return cursor.records.filter((fields) => fields.some((value) => value.trim() !== ""));
}

/** Parses CSV text whose first non-empty line is the header. Header names are trimmed. */
export function parseCsv(text: string): CsvTable {
  const [header = [], ...rows] = parseRecords(text);
  return { header: header.map((name) => name.trim()), rows };
}
