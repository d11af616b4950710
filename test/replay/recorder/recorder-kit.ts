import { z } from "zod";
import type { ProviderMap } from "../../../src/activities/index.js";
import { defineAgent, type AgentDefinition } from "../../../src/define-agent.js";
import { ProviderError } from "../../../src/kernel/errors.js";
import { defineTool, type ToolContext } from "../../../src/kernel/tools.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";
import { conversationScript } from "../../../src/testing/conversation-script.js";
import { Gate } from "./gate.js";

/** The longest a slow tool waits for its cancellation before giving up (so a broken cancel cannot hang the recorder). */
const SLOW_TOOL_CEILING_MS = 30_000;

/** The gates a scenario uses to act while a tool is running on the worker. */
export interface RecorderGates {
  /** `hold` entered; it returns once `holdRelease` opens. */
  holdEntered: Gate;
  holdRelease: Gate;
  /** `slow` entered; it returns once cancelled (`slowExited`). */
  slowEntered: Gate;
  slowExited: Gate;
}

/** The agents, scripted models and gates of the recording scenarios. */
export interface RecorderKit {
  agents: AgentDefinition[];
  providers: ProviderMap;
  gates: RecorderGates;
}

const add = defineTool({
  name: "add",
  description: "Adds two numbers.",
  schema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});

const shout = defineTool({
  name: "shout",
  description: "Upper-cases a text.",
  schema: z.object({ text: z.string() }),
  execute: ({ text }) => text.toUpperCase(),
});

/** Resolves when the signal aborts, or after `ms`; true when it aborted. */
function abortedWithin(signal: ToolContext["signal"], ms: number): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve(true)), { once: true });
  });
}

function gatedTools(gates: RecorderGates) {
  const hold = defineTool({
    name: "hold",
    description: "Looks something up (waits for the recorder).",
    schema: z.object({ topic: z.string() }),
    execute: async ({ topic }) => {
      gates.holdEntered.open();
      await gates.holdRelease.opened;
      return `found: ${topic}`;
    },
  });
  const slow = defineTool({
    name: "slow",
    description: "A long job that runs until cancelled.",
    schema: z.object({ seconds: z.number() }),
    execute: async (_input, ctx) => {
      gates.slowEntered.open();
      const aborted = await abortedWithin(ctx.signal, SLOW_TOOL_CEILING_MS);
      gates.slowExited.open();
      return aborted ? { content: "cancelled", isError: true } : "finished without a cancel";
    },
  });
  return { hold, slow };
}

/** A fresh kit: agents named `replay-<scenario>`, each with its own scripted model `script-<scenario>`. */
export function createRecorderKit(): RecorderKit {
  const gates: RecorderGates = {
    holdEntered: new Gate(),
    holdRelease: new Gate(),
    slowEntered: new Gate(),
    slowExited: new Gate(),
  };
  const { hold, slow } = gatedTools(gates);
  const agent = (name: string, rest: Omit<AgentDefinition, "name" | "model">) =>
    defineAgent({
      name: `replay-${name}`,
      model: `script-${name}`,
      system: "You are the replay recorder's agent.",
      ...rest,
    });
  return {
    gates,
    agents: [
      agent("tool-loop", { tools: [add, shout] }),
      agent("steer-follow-up", { tools: [hold] }),
      agent("cancel", { tools: [slow], durable: { toolHeartbeatTimeoutMs: 1_000 } }),
      agent("continue-as-new", { tools: [add], durable: { continueAsNew: { maxRunsPerExecution: 2 } } }),
      agent("provider-error", {}),
      agent("closed", { tools: [add] }),
    ],
    providers: scripts(),
  };
}

/** The scripted answers; a conversation script picks the answer by how many answers the session already holds. */
function scripts(): ProviderMap {
  return {
    "script-tool-loop": conversationScript([
      toolCallTurn([
        { id: "c1", name: "add", input: { a: 2, b: 3 } },
        { id: "c2", name: "shout", input: { text: "hi" } },
      ]),
      toolCallTurn([{ id: "c3", name: "add", input: { a: 5, b: 10 } }]),
      textTurn("The answer is 15 and HI."),
    ]),
    "script-steer-follow-up": conversationScript([
      toolCallTurn([{ id: "h1", name: "hold", input: { topic: "rainfall" } }]),
      textTurn("Rainfall is 800 mm a year."),
      textTurn("In short: about 800 mm."),
      textTurn("The second run's answer."),
    ]),
    "script-cancel": conversationScript([
      toolCallTurn([{ id: "s1", name: "slow", input: { seconds: 600 } }]),
      // Whatever the cancelled run leaves in the conversation, the next run's first answer is text.
      textTurn("Fresh start after the cancel."),
      textTurn("Fresh start after the cancel."),
    ]),
    "script-continue-as-new": conversationScript([
      textTurn("First run."),
      toolCallTurn([{ id: "a1", name: "add", input: { a: 1, b: 2 } }]),
      textTurn("Second run: 3."),
      textTurn("Third run, in the next execution."),
    ]),
    "script-provider-error": conversationScript([{ error: new ProviderError("bad", 400) }]),
    "script-closed": conversationScript([
      toolCallTurn([{ id: "a1", name: "add", input: { a: 4, b: 4 } }]),
      textTurn("8. Closing."),
    ]),
  };
}
