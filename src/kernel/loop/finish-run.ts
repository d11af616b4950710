import type { BackgroundTasks } from "../background/types.js";
import type { AgentEvent, RunResult, StopReason } from "../vocabulary/events.js";
import { andThen, forEachMaybeAsync, type MaybeAsync } from "../coroutine/maybe-async.js";
import { messageText, type Message } from "../vocabulary/messages.js";
import type { RunState } from "./run-state.js";

/** Step 10: cancel owned background work, run `afterAgent`; returns the last events, `done` included. */
export function finish(run: RunState, reason: StopReason): MaybeAsync<AgentEvent[]> {
  const stopped = run.background?.owned ? stopBackground(run.background.tasks, run.config) : undefined;
  const hooked = andThen(stopped, () =>
    forEachMaybeAsync(run.config.use, (layer) => layer.afterAgent?.(run.ctx, { reason })),
  );
  const flushed = andThen(hooked, () => run.log.flush());
  return andThen(flushed, () => lastEvents(run, reason));
}

/** The run's result (kept on the run) and its last events: what the sink still holds, then `done`. */
function lastEvents(run: RunState, reason: StopReason): AgentEvent[] {
  const result: RunResult = {
    messages: run.ctx.messages,
    text: lastAssistantText(run.ctx.messages),
    usage: run.usage,
    stopReason: reason,
  };
  run.result = result;
  return [...run.sink.drain(), { type: "done", reason, result }];
}

/** Cancels the run's joinable tasks and waits for what the config says to wait for (by default nothing). */
function stopBackground(tasks: BackgroundTasks, config: RunState["config"]): MaybeAsync<void> {
  tasks.cancelAll();
  if (tasks.pendingJoinable() === 0 || !tasks.joinableStopped || !config.awaitBackgroundStop) return;
  return config.awaitBackgroundStop(tasks.joinableStopped());
}

function lastAssistantText(messages: Message[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === "assistant") return messageText(message);
  }
  return "";
}
