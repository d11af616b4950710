import { z } from "zod";
import { defineTool } from "../src/kernel/vocabulary/tools.js";

/** The benchmarks' tool: costs nothing, so a turn measures the runtime, not the tool. */
export const noopTool = defineTool({
  name: "noop",
  description: "does nothing",
  schema: z.object({}),
  execute: () => "ok",
});
