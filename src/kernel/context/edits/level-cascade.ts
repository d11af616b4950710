import type { KernelPorts } from "../../vocabulary/ports.js";
import type { ToolSpec } from "../../vocabulary/tools.js";
import {
  applyPlannerProposal,
  applyRememberedDecisions,
  isPlannerCandidate,
  type PlannerDecisionMemo,
  type ProposalContext,
} from "../apply-planner-proposal.js";
import {
  LEVEL_1_THRESHOLD,
  LEVEL_2_THRESHOLD,
  LEVEL_3_THRESHOLD,
  LEVEL_4_THRESHOLD,
  PLANNER_TIMEOUT_MS,
  type ContextLevel,
} from "./context-levels.js";
import { dropDuplicateReminders } from "./drop-duplicate-reminders.js";
import { externalizeSeenResults, type ArchivedResultMemo } from "./externalize-seen-results.js";
import { pinAndShrink } from "./pin-and-shrink.js";
import { runPlanner } from "../run-planner.js";
import type { ContextTokenCounter } from "../token-counter.js";
import type { ContextArchive, ContextFact, ContextPlanner, ContextView } from "../types.js";
import { flattenSegments, latestSegmentId, type WorkingSegment } from "./working-segments.js";

/** One prepare/compact pass while the levels run. */
export interface CascadePass {
  reason: string;
  instructions?: string;
  /** Forced passes (compact) run every level regardless of pressure. */
  force: boolean;
  prefix: { system?: string; tools?: ToolSpec[] };
  segments: WorkingSegment[];
  facts: ContextFact[];
  level: ContextLevel;
  /** The latest measurement of the request, in tokens. */
  tokens: number;
  /** Archive refs this pass created. */
  refs: string[];
  planner: { used: boolean; fallback: boolean; latencyMs: number };
}

/** What the cascade needs from the engine. */
export interface CascadeDeps {
  sessionId: string;
  ports: KernelPorts;
  windowTokens: number;
  count: ContextTokenCounter;
  planner?: ContextPlanner;
  plannerTimeoutMs?: number;
  archive?: ContextArchive;
  resultMemo: ArchivedResultMemo;
  plannerMemo: PlannerDecisionMemo;
  verified: Set<string>;
  /** Mutated by a planner's `stateDelta`. */
  workingState: Record<string, string>;
  /** The current view of a pass, as the planner sees it. */
  view(pass: CascadePass): ContextView;
}

/**
 * Runs L1–L4 in order. Each level runs only when the request, re-measured after the previous level, is still
 * above its threshold (or the pass is forced), so the cheapest sufficient level wins. L3 exists only with a
 * planner; when the planner fails or times out, L4 runs in its place.
 */
export async function runLevelCascade(pass: CascadePass, deps: CascadeDeps): Promise<void> {
  if (reaches(pass, deps, LEVEL_1_THRESHOLD)) {
    const externalized = externalizeSeenResults(pass.segments, { ...archiveOf(deps), memo: deps.resultMemo });
    pass.refs.push(...externalized.refs);
    await advance(pass, deps, 1, externalized.segments);
  }
  if (reaches(pass, deps, LEVEL_2_THRESHOLD))
    await advance(pass, deps, 2, dropDuplicateReminders(pass.segments));
  if (deps.planner && reaches(pass, deps, LEVEL_3_THRESHOLD)) {
    const planned = await levelThree(pass, deps, deps.planner);
    if (planned) await advance(pass, deps, 3, pass.segments);
    else await advance(pass, deps, 4, pinAndShrink(pass.segments, pass.facts));
  }
  if (pass.level < 4 && reaches(pass, deps, LEVEL_4_THRESHOLD)) {
    await advance(pass, deps, 4, pinAndShrink(pass.segments, pass.facts));
  }
}

function reaches(pass: CascadePass, deps: CascadeDeps, threshold: number): boolean {
  return pass.force || pass.tokens > deps.windowTokens * threshold;
}

function archiveOf(deps: CascadeDeps): { archive?: ContextArchive } {
  return deps.archive ? { archive: deps.archive } : {};
}

async function advance(
  pass: CascadePass,
  deps: CascadeDeps,
  level: ContextLevel,
  segments: WorkingSegment[],
): Promise<void> {
  pass.segments = segments;
  pass.level = level;
  pass.tokens = await deps.count(flattenSegments(segments).messages, pass.prefix);
}

/** L3: asks the planner about the older segments. False when it gave no usable proposal in time. */
async function levelThree(pass: CascadePass, deps: CascadeDeps, planner: ContextPlanner): Promise<boolean> {
  const context: ProposalContext = {
    ...archiveOf(deps),
    latestId: latestSegmentId(pass.segments),
    verified: deps.verified,
    memo: deps.plannerMemo,
  };
  pass.segments = applyRememberedDecisions(pass.segments, context);
  const candidateIds = new Set(pass.segments.filter((s) => isPlannerCandidate(s, context)).map((s) => s.id));
  const view = deps.view(pass);
  const input = {
    sessionId: deps.sessionId,
    reason: pass.reason,
    ...(pass.instructions ? { instructions: pass.instructions } : {}),
    view,
    candidates: view.segments.filter((segment) => candidateIds.has(segment.id)),
  };
  const outcome = await runPlanner(planner, input, deps.ports, deps.plannerTimeoutMs ?? PLANNER_TIMEOUT_MS);
  pass.planner = { used: true, fallback: outcome.proposal === undefined, latencyMs: outcome.latencyMs };
  if (!outcome.proposal) return false;
  const applied = applyPlannerProposal(pass.segments, outcome.proposal, context);
  pass.segments = applied.segments;
  pass.refs.push(...applied.refs);
  for (const [key, value] of Object.entries(outcome.proposal.stateDelta ?? {})) {
    if (typeof value === "string") deps.workingState[key] = value;
  }
  return true;
}
