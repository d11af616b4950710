import { z } from "zod";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { PROGRESS_UPSERT_INTERVAL_MS } from "../../src/workflows/session/session-visibility.js";

/**
 * A tool that waits a little longer than the session's progress interval, so the run it is in upserts its progress
 * (`AgentTurns`, `AgentTokens`, `AgentCost`) at the end of the tool's turn.
 */
export const restTool = defineTool({
  name: "rest",
  description: "Waits a while.",
  schema: z.object({}),
  execute: () =>
    new Promise<string>((resolve) => setTimeout(() => resolve("rested"), PROGRESS_UPSERT_INTERVAL_MS + 500)),
});
