/** Wraps text in one style. */
export type Paint = (text: string) => string;

/** The few styles the demo uses. */
export interface TerminalStyle {
  bold: Paint;
  dim: Paint;
  cyan: Paint;
  yellow: Paint;
  green: Paint;
  red: Paint;
}

function ansi(open: number, close: number): Paint {
  return (text) => `\u001b[${open}m${text}\u001b[${close}m`;
}

/** ANSI styles, or plain text when `enabled` is false (pipes, `NO_COLOR`, tests). */
export function terminalStyle(enabled: boolean): TerminalStyle {
  if (!enabled) {
    const plain: Paint = (text) => text;
    return { bold: plain, dim: plain, cyan: plain, yellow: plain, green: plain, red: plain };
  }
  return {
    bold: ansi(1, 22),
    dim: ansi(2, 22),
    cyan: ansi(36, 39),
    yellow: ansi(33, 39),
    green: ansi(32, 39),
    red: ansi(31, 39),
  };
}

/** Whether to colour a stream: a terminal, unless `NO_COLOR` is set (https://no-color.org) or `FORCE_COLOR` is. */
export function wantsColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "" && env.FORCE_COLOR !== "0") return true;
  return stream.isTTY === true;
}
