import { afterEach, describe, expect, it } from "vitest";
import { handleInterrupts, type Interrupts } from "../../../src/terminal/interrupts.js";

let handlers: Interrupts | undefined;
afterEach(() => handlers?.dispose());

function setup() {
  const lines: string[] = [];
  const exits: number[] = [];
  const clock = { now: 1_000 };
  handlers = handleInterrupts((line) => lines.push(line), {
    exit: (code) => exits.push(code),
    now: () => clock.now,
  });
  return { lines, exits, clock, handlers };
}

describe("handleInterrupts", () => {
  it("turns the first SIGINT into an abort and a resolved promise, without exiting", async () => {
    const { lines, exits, handlers } = setup();
    process.emit("SIGINT", "SIGINT");
    expect(handlers.signal.aborted).toBe(true);
    await handlers.interrupted;
    expect(exits).toEqual([]);
    expect(lines).toEqual(["SIGINT: shutting down cleanly (press Ctrl-C again to quit at once)…"]);
  });

  it("takes repeats within a second as echoes of the same Ctrl-C (npm and tsx relay it)", () => {
    const { exits, clock } = setup();
    process.emit("SIGINT", "SIGINT");
    clock.now += 999;
    process.emit("SIGINT", "SIGINT");
    expect(exits).toEqual([]);
  });

  it("exits with 130 on a second Ctrl-C a second or more after the first", () => {
    const { exits, clock, lines } = setup();
    process.emit("SIGTERM", "SIGTERM");
    clock.now += 1_000;
    process.emit("SIGINT", "SIGINT");
    expect(exits).toEqual([130]);
    expect(lines.at(-1)).toBe("SIGINT again: quitting now.");
  });

  it("removes its handlers on dispose", () => {
    const before = process.listenerCount("SIGINT");
    const { handlers } = setup();
    expect(process.listenerCount("SIGINT")).toBe(before + 1);
    handlers.dispose();
    expect(process.listenerCount("SIGINT")).toBe(before);
  });
});
