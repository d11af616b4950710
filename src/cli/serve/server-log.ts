/**
 * The server's own log lines only with `--verbose`, else just its errors: browsing the UI alone makes it warn
 * dozens of times, burying the worker's output. The CLI's lines about the server (installing it) always show.
 */
export function serverLog(
  show: (line: string) => void,
  verbose: boolean | undefined,
): (line: string) => void {
  return (line) => {
    if (line.startsWith("Temporal dev server ready at")) return;
    if (verbose || !line.startsWith("[temporal]") || /error|fatal|panic/i.test(line)) show(line);
  };
}
