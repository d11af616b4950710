import type { ContentBlock, ToolResultBlock } from "../../vocabulary/messages.js";
import { mapBlocks } from "./map-blocks.js";
import { isSpilled, spillMarker } from "./spill-marker.js";
import type { CompactPass, SpillStore } from "../types.js";

/** Options of {@link toolResultBudgetPass}. */
export interface ToolResultBudgetPassOptions {
  /** Where spilled bodies go. */
  store: SpillStore;
  /** Spill the largest tool results until the bodies left in context total at most this. Default 200_000. */
  budgetBytes?: number;
}

/** The seed's name for {@link ToolResultBudgetPassOptions}. */
export type ToolResultBudgetOptions = ToolResultBudgetPassOptions;

/**
 * Keeps the total tool-result body size (UTF-16 length) under `budgetBytes` by moving the largest bodies to `store`,
 * each replaced by a {@link spillMarker}; blocks stay, so calls and results still pair, and spilled bodies are not
 * counted again. Run it before `microPass`, which would otherwise blank the bodies for good.
 */
export function toolResultBudgetPass(options: ToolResultBudgetPassOptions): CompactPass {
  const budget = options.budgetBytes ?? 200_000;
  return {
    name: "tool-result-budget",
    apply(messages) {
      const bodies = messages.flatMap((message) =>
        typeof message.content === "string" ? [] : message.content.filter(isInContextResult),
      );
      const chosen = chooseSpills(bodies, budget);
      if (chosen.size === 0) return messages;
      const spill = (block: ContentBlock): ContentBlock => {
        if (block.type !== "tool_result" || !chosen.has(block)) return block;
        return { ...block, content: spillMarker(options.store.put(block.content), block.content.length) };
      };
      return messages.map((message) => mapBlocks(message, spill));
    },
  };
}

/** A tool result whose body is still in context. */
function isInContextResult(block: ContentBlock): block is ToolResultBlock {
  return block.type === "tool_result" && !isSpilled(block.content);
}

/** The blocks to spill, largest first (ties: the older one), until the rest fits the budget. */
function chooseSpills(bodies: readonly ToolResultBlock[], budget: number): Set<ToolResultBlock> {
  let total = bodies.reduce((sum, block) => sum + block.content.length, 0);
  const chosen = new Set<ToolResultBlock>();
  // Array sort is stable, so equal sizes keep conversation order.
  for (const block of [...bodies].sort((a, b) => b.content.length - a.content.length)) {
    if (total <= budget) break;
    chosen.add(block);
    total -= block.content.length;
  }
  return chosen;
}
