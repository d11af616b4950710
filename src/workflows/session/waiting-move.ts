import { condition } from "@temporalio/workflow";
import type { AgentEvent } from "../../kernel/vocabulary/events.js";
import type { OpenToolPhase, RunSnapshot, ToolPhaseSnapshot } from "../../kernel/vocabulary/run-snapshot.js";
import type { ApprovalBoard } from "../approvals/approval-board.js";

/** How a driven run left: it ended with `result`, or the session moves it while it waits (`moved`). */
export type DrivenOrMoved<T> = { result: T } | { moved: RunSnapshot };

/**
 * Drives the run until it ends, or until it may move while waiting for a person: `wanted()` (another build is the
 * target) and every open call of the turn's tool phase awaits a decision or answer not yet given. Then resolves with
 * the run paused there (its waits stay on the board) for an immediate continue-as-new; `drive` gets the `toolPhase`.
 */
export function driveUntilMoved<T>(
  drive: (toolPhase: (phase: OpenToolPhase | undefined) => void) => Promise<T>,
  board: ApprovalBoard,
  wanted: () => boolean,
): Promise<DrivenOrMoved<T>> {
  return new Promise((resolve, reject) => {
    let phase: OpenToolPhase | undefined;
    let ended = false;
    let watching = false;
    const waits = (): boolean => {
      const open = phase && wanted() ? phase.open() : [];
      return open.length > 0 && open.every((callId) => board.awaitsPerson(callId));
    };
    const watch = (): void => {
      watching = true;
      // A cancelled run ends through the kernel: this wait, cancelled with it, changes nothing.
      condition(() => ended || waits()).then(
        () => ended || resolve({ moved: phase!.snapshot() }),
        () => undefined,
      );
    };
    drive((opened) => {
      phase = opened;
      if (opened && !watching) watch();
    }).then(
      (result) => ((ended = true), resolve({ result })),
      (error: unknown) => ((ended = true), reject(error)),
    );
  });
}

/**
 * What a run resumed in its tool phase tells again that the previous execution published (so the session drops
 * it): the start of each call that had not finished, its approval request or question, and its gate's verdict by
 * policy (given before the call waited). What such a call tells once it waited again is new.
 */
export function retoldEvents(phase: ToolPhaseSnapshot | undefined): (event: AgentEvent) => boolean {
  if (!phase) return () => false;
  const finished = new Set(phase.results.map((result) => result.id));
  const open = new Set(phase.calls.map((call) => call.id).filter((id) => !finished.has(id)));
  return (event) => {
    switch (event.type) {
      case "tool_call_start":
      case "approval_request":
      case "input_request":
        return open.has(event.call.id);
      case "permission_decision":
        return event.by === "policy" && open.has(event.call.id);
      default:
        return false;
    }
  };
}
