// The agent of the chaos benchmark (bench/chaos.ts): a scripted, stateless model that makes TURNS_PER_RUN turns per
// run, each but the last calling the `ledger` tool; the tool and the model append a line to the ledger file for
// each start and end, so the benchmark can count repeated tool calls and time recoveries afterwards.
import { appendFileSync } from "node:fs";
import { z } from "zod";
import { defineAgent } from "../../src/define-agent.js";
import { AbortError } from "../../src/kernel/vocabulary/errors.js";
import type { ModelChunk, ModelProvider, ModelRequest } from "../../src/kernel/vocabulary/model.js";
import { defineTool, type ToolContext } from "../../src/kernel/vocabulary/tools.js";

export const CHAOS_AGENT = "chaos";
/** Model calls per run: a `ledger` tool call on each but the last, then a short answer. */
export const TURNS_PER_RUN = 8;
/** Pause between the model's streamed chunks (three chunks per call); none at the fast speed. */
const MODEL_CHUNK_DELAY_MS = 100;

/**
 * How fast the scripted model and tool work: `slow`, a model call of ~300 ms and tool calls of 400-1,200 ms, so kills
 * land in the middle of calls; `fast`, no pause in a model call and tool calls of 20-100 ms, so runs race through
 * continue-as-new and followers fall behind.
 */
export type ChaosSpeed = "slow" | "fast";
const MODEL_CHUNKS = 3;

/** One ledger line: `<ms> <kind> <sessionId> <key> <worker>`; the key is the call id (tools) or `<run>/<turn>`. */
export type LedgerKind = "model-start" | "model-end" | "tool-start" | "tool-end";
export interface LedgerLine {
  at: number;
  kind: LedgerKind;
  sessionId: string;
  key: string;
  worker: string;
}

export function formatLedgerLine(line: LedgerLine): string {
  return `${line.at} ${line.kind} ${line.sessionId} ${line.key} ${line.worker}\n`;
}

export function parseLedgerLine(text: string): LedgerLine | undefined {
  const [at, kind, sessionId, key, worker] = text.split(" ");
  if (!at || !kind || !sessionId || !key || !worker) return undefined;
  return { at: Number(at), kind: kind as LedgerKind, sessionId, key, worker };
}

/** The prompt of a run: the model reads the session and run from it (a model request carries neither). */
export function chaosPrompt(sessionId: string, runTag: string): string {
  return `chaos ${sessionId} ${runTag}`;
}

interface ChaosContext {
  ledger: string;
  worker: string;
}

function note(context: ChaosContext, kind: LedgerKind, sessionId: string, key: string): void {
  appendFileSync(
    context.ledger,
    formatLedgerLine({ at: Date.now(), kind, sessionId, key, worker: context.worker }),
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The run's session, tag and current turn (1-based): model calls since the run's prompt, plus one. */
function position(request: ModelRequest): { sessionId: string; runTag: string; turn: number } {
  const lastUser = request.messages.findLastIndex(
    (message) =>
      message.role === "user" && typeof message.content === "string" && message.content.startsWith("chaos "),
  );
  const prompt = request.messages[lastUser]?.content;
  const [, sessionId = "?", runTag = "?"] = typeof prompt === "string" ? prompt.split(" ") : [];
  const turn =
    request.messages.slice(lastUser + 1).filter((message) => message.role === "assistant").length + 1;
  return { sessionId, runTag, turn };
}

/** The scripted model: three chunks 100 ms apart (each heartbeats), then a tool call or, on the last turn, an answer. */
export function chaosModel(context: ChaosContext, speed: ChaosSpeed = "slow"): ModelProvider {
  return {
    id: "chaos-model",
    async *stream(request, signal): AsyncIterable<ModelChunk> {
      const { sessionId, runTag, turn } = position(request);
      const key = `${runTag}/${turn}`;
      note(context, "model-start", sessionId, key);
      for (let chunk = 0; chunk < MODEL_CHUNKS; chunk++) {
        if (speed === "slow") await sleep(MODEL_CHUNK_DELAY_MS);
        if (signal?.aborted) throw new AbortError();
        yield { type: "text_delta", text: `t${turn}.${chunk} ` };
      }
      const last = turn >= TURNS_PER_RUN;
      const content = last
        ? [{ type: "text" as const, text: `done ${runTag}` }]
        : [
            {
              type: "tool_call" as const,
              id: `${runTag}-c${turn}`,
              name: "ledger",
              // Slow, 400-1,200 ms: long enough for kills to land in the middle of tool calls.
              input: { ms: speed === "slow" ? 400 + ((turn * 173) % 800) : 20 + ((turn * 37) % 80) },
            },
          ];
      note(context, "model-end", sessionId, key);
      yield {
        type: "message_done",
        message: { role: "assistant", content },
        usage: { inputTokens: 1, outputTokens: 1 },
      };
    },
  };
}

/** The tool: appends `tool-start`, works `ms` (heartbeating), appends `tool-end`. At most once (the default). */
function ledgerTool(context: ChaosContext) {
  return defineTool({
    name: "ledger",
    description: "appends a line to the ledger, works a while, appends another",
    schema: z.object({ ms: z.number() }),
    execute: async ({ ms }, ctx: ToolContext) => {
      const callId = ctx.call?.id ?? "?";
      note(context, "tool-start", ctx.sessionId, callId);
      const until = Date.now() + ms;
      while (Date.now() < until) {
        if (ctx.signal.aborted) return "aborted";
        ctx.heartbeat?.();
        await sleep(Math.min(200, until - Date.now()));
      }
      note(context, "tool-end", ctx.sessionId, callId);
      return `recorded ${callId}`;
    },
  });
}

/**
 * The agent, with the durable defaults (model and tool heartbeat timeouts 10 s, continue-as-new at 10,000 history
 * events) unless `heartbeatTimeoutMs` or `maxHistoryEvents` is given.
 */
export function chaosAgent(context: ChaosContext, heartbeatTimeoutMs?: number, maxHistoryEvents?: number) {
  return defineAgent({
    name: CHAOS_AGENT,
    model: "chaos-model",
    tools: [ledgerTool(context)],
    maxTurns: TURNS_PER_RUN + 2,
    durable: {
      ...(heartbeatTimeoutMs === undefined
        ? {}
        : { toolHeartbeatTimeoutMs: heartbeatTimeoutMs, modelRetry: { heartbeatTimeoutMs } }),
      ...(maxHistoryEvents === undefined ? {} : { continueAsNew: { maxHistoryEvents } }),
    },
  });
}
