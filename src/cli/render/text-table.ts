/**
 * Lays rows out in aligned columns under a header, two spaces apart; the last column is not padded.
 * @example textTable(["ID", "STATUS"], [["s-1", "idle"]]) // "ID   STATUS\ns-1  idle\n"
 */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? "").length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join("  ")
      .trimEnd();
  return all.map((row) => `${line(row)}\n`).join("");
}
