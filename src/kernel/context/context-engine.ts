import type { ContextStatus } from "../vocabulary/events.js";
import type { Message } from "../vocabulary/messages.js";
import type { ModelProvider } from "../vocabulary/model.js";
import type { KernelPorts } from "../vocabulary/ports.js";
import type { SessionEvent } from "../vocabulary/session-events.js";
import type { ArchivedResultMemo } from "./edits/externalize-seen-results.js";
import type { PlannerDecisionMemo } from "./apply-planner-proposal.js";
import { DEFAULT_CONTEXT_WINDOW, levelForPressure, type ContextLevel } from "./edits/context-levels.js";
import { runLevelCascade, type CascadePass, type CascadeDeps } from "./edits/level-cascade.js";
import { emergencyView } from "./edits/emergency-view.js";
import { nativeContextEdits } from "./edits/native-context-edits.js";
import { extractFacts } from "./edits/pinned-facts.js";
import { prefixFingerprint, type StaticPrefix } from "./prefix-fingerprint.js";
import { repairSegmentPairs } from "./edits/repair-tool-pairs.js";
import { restoreContextState, type RestoredContextState } from "./restore-context-state.js";
import { createTokenCounter, type ContextTokenCounter } from "./token-counter.js";
import type {
  ContextArchive,
  ContextEngine,
  ContextPlanner,
  ContextPreparation,
  ContextRequest,
  ContextView,
} from "./types.js";
import { flattenSegments, splitSegments } from "./edits/working-segments.js";

/** How to build a ContextEngine. */
export interface ContextEngineOptions {
  sessionId: string;
  ports: KernelPorts;
  /** Gives the window (`context.contextWindow`), token counting and the native edits it supports. */
  provider?: ModelProvider;
  /** The model named in `countTokens` requests; the provider id when omitted. */
  model?: string;
  /** Enables L3. */
  planner?: ContextPlanner;
  /** How long L3 waits for the planner before falling back to L4; default `PLANNER_TIMEOUT_MS` (100 ms). */
  plannerTimeoutMs?: number;
  /** Where L1 and L3 externalise content; without one L1 keeps a preview and L3 cannot archive. */
  archive?: ContextArchive;
  windowTokens?: number;
  staticPrefix?: StaticPrefix;
  /** Restores the generation, facts, working state and archive refs from the latest committed `context_view`. */
  history?: SessionEvent[];
  /** The state a paused run carried (its snapshot's `contextState`), used when `history` holds no view. */
  state?: RestoredContextState;
  /** Where committed `context_view` events go. */
  record?: (event: SessionEvent) => void;
}

/** What the engine keeps between calls; all of it is derived deterministically from the calls made. */
interface EngineMemory {
  generation: number;
  facts: ReturnType<typeof restoreContextState>["facts"];
  workingState: Record<string, string>;
  archiveRefs: string[];
  resultMemo: ArchivedResultMemo;
  plannerMemo: PlannerDecisionMemo;
  verified: Set<string>;
  status: ContextStatus | undefined;
}

/**
 * Creates the ContextEngine (seed A9): it projects the durable messages into what the model sees, acting in
 * levels as the request fills the window (>65% L1, >75% L2, >85% L3 with a planner, >95% L4, L5 in an
 * emergency). Each pass that acts commits a `context_view` with the next generation. The log is never changed.
 */
export function createContextEngine(options: ContextEngineOptions): ContextEngine {
  return new LevelledContextEngine(options);
}

class LevelledContextEngine implements ContextEngine {
  private readonly windowTokens: number;
  private readonly count: ContextTokenCounter;
  private readonly memory: EngineMemory;

  constructor(private readonly options: ContextEngineOptions) {
    const window = options.windowTokens ?? options.provider?.context?.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
    this.windowTokens = Number.isFinite(window) && window > 0 ? Math.floor(window) : DEFAULT_CONTEXT_WINDOW;
    this.count = createTokenCounter(options.provider, options.model ?? options.provider?.id ?? "context");
    const restored = restoreContextState(options.history, options.state);
    this.memory = {
      ...restored,
      resultMemo: new Map(),
      plannerMemo: new Map(),
      verified: new Set(),
      status: undefined,
    };
  }

  get status(): ContextStatus | undefined {
    return this.memory.status;
  }

  state(): RestoredContextState {
    const { generation, facts, workingState, archiveRefs } = this.memory;
    return {
      generation,
      facts: [...facts],
      workingState: { ...workingState },
      archiveRefs: [...archiveRefs],
    };
  }

  async prepare(messages: Message[], request?: ContextRequest): Promise<ContextPreparation> {
    const prefix = {
      system: request?.system ?? this.options.staticPrefix?.system,
      tools: request?.tools ?? this.options.staticPrefix?.tools,
    };
    const before = await this.count(messages, prefix);
    if (levelForPressure(before, this.windowTokens, this.options.planner !== undefined) === 0) {
      return this.idle(messages, before, "none");
    }
    const pass = this.newPass("pressure", messages, prefix, before, false);
    await runLevelCascade(pass, this.deps());
    // L5 only when L4 was not enough: the request still does not fit the window.
    if (pass.level >= 4 && pass.tokens > this.windowTokens) this.emergency(pass, "emergency");
    return this.commit(pass, before, false);
  }

  async compact(
    reason: "overflow" | "manual",
    messages: Message[],
    instructions?: string,
  ): Promise<ContextPreparation> {
    const prefix = { system: this.options.staticPrefix?.system, tools: this.options.staticPrefix?.tools };
    const before = await this.count(messages, prefix);
    if (messages.length === 0) return this.idle(messages, before, reason);
    const pass = this.newPass(reason, messages, prefix, before, true, instructions);
    await runLevelCascade(pass, this.deps());
    if (reason === "overflow") this.emergency(pass, reason);
    return this.commit(pass, before, reason === "overflow");
  }

  private newPass(
    reason: string,
    messages: Message[],
    prefix: CascadePass["prefix"],
    tokens: number,
    force: boolean,
    instructions?: string,
  ): CascadePass {
    return {
      reason,
      ...(instructions ? { instructions } : {}),
      force,
      prefix,
      segments: splitSegments(messages),
      facts: extractFacts(messages, this.memory.facts),
      level: 0,
      tokens,
      refs: [],
      planner: { used: false, fallback: false, latencyMs: 0 },
    };
  }

  private deps(): CascadeDeps {
    const { options, memory } = this;
    return {
      sessionId: options.sessionId,
      ports: options.ports,
      windowTokens: this.windowTokens,
      count: this.count,
      ...(options.planner ? { planner: options.planner } : {}),
      ...(options.plannerTimeoutMs !== undefined ? { plannerTimeoutMs: options.plannerTimeoutMs } : {}),
      ...(options.archive ? { archive: options.archive } : {}),
      resultMemo: memory.resultMemo,
      plannerMemo: memory.plannerMemo,
      verified: memory.verified,
      workingState: memory.workingState,
      view: (pass) => this.viewOf(pass, memory.generation),
    };
  }

  /** L5, applied at most once per pass. */
  private emergency(pass: CascadePass, reason: string): void {
    pass.segments = emergencyView(pass.segments, pass.facts);
    pass.level = 5;
    pass.reason = reason;
  }

  private viewOf(pass: CascadePass, generation: number): ContextView {
    const flat = flattenSegments(pass.segments);
    return {
      generation,
      facts: [...pass.facts],
      workingState: { ...this.memory.workingState },
      segments: flat.segments,
      archiveRefs: mergeRefs(this.memory.archiveRefs, pass.refs),
      messages: flat.messages,
      prefixFingerprint: prefixFingerprint({ ...pass.prefix, codec: this.options.staticPrefix?.codec }),
    };
  }

  /** Commits the pass as the next generation: records the view, updates the status. */
  private async commit(pass: CascadePass, before: number, retry: boolean): Promise<ContextPreparation> {
    pass.segments = repairSegmentPairs(pass.segments);
    const view = this.viewOf(pass, this.memory.generation + 1);
    const after = await this.count(view.messages, pass.prefix);
    this.memory.generation = view.generation;
    this.memory.facts = view.facts;
    this.memory.archiveRefs = view.archiveRefs;
    this.options.record?.({ type: "context_view", view, throughSeq: 0 });
    const status = this.statusOf(pass.level, pass.reason, before, after, pass.planner, retry);
    this.memory.status = status;
    return {
      messages: view.messages,
      status,
      edits: nativeContextEdits(pass.level, this.options.provider?.context),
    };
  }

  /** Nothing to do: the messages pass through untouched and nothing is committed. */
  private idle(messages: Message[], tokens: number, reason: string): ContextPreparation {
    const planner = { used: false, fallback: false, latencyMs: 0 };
    return { messages, status: this.statusOf(0, reason, tokens, tokens, planner, false), edits: {} };
  }

  private statusOf(
    level: ContextLevel,
    reason: string,
    beforeTokens: number,
    afterTokens: number,
    planner: CascadePass["planner"],
    retry: boolean,
  ): ContextStatus {
    return {
      sessionId: this.options.sessionId,
      level,
      reason,
      beforeTokens,
      afterTokens,
      generation: this.memory.generation,
      plannerUsed: planner.used,
      plannerFallback: planner.fallback,
      plannerLatencyMs: planner.latencyMs,
      archiveRefs: [...this.memory.archiveRefs],
      retry,
    };
  }
}

function mergeRefs(known: readonly string[], added: readonly string[]): string[] {
  const refs = [...known];
  for (const ref of added) if (!refs.includes(ref)) refs.push(ref);
  return refs;
}
