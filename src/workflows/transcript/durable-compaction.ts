import { proxyActivities } from "@temporalio/workflow";
import type { AgentActivities } from "../../contract/activity-types.js";
import type { AgentPlan, CompactionPlan } from "../../contract/agent-plan.js";
import { archivingCompactor, type TranscriptArchiver } from "./archiving-compactor.js";
import { planCompactor } from "../../plan/plan-compactor.js";
import { errorMessage } from "../../kernel/vocabulary/errors.js";
import { compaction } from "../../kernel/compaction/compaction-middleware.js";
import type { Message } from "../../kernel/vocabulary/messages.js";
import type { Middleware } from "../../kernel/middleware/middleware.js";
import type { ModelProvider } from "../../kernel/vocabulary/model.js";
import { durableModel } from "../run/durable-model.js";
import { applicationCause } from "../run/failure-cause.js";
import type { SessionState } from "../session/session-state.js";

const { archiveTranscript } = proxyActivities<AgentActivities>({
  startToCloseTimeout: "1 minute",
  retry: {
    maximumAttempts: 5,
    initialInterval: "1 second",
    backoffCoefficient: 2,
    maximumInterval: "10 seconds",
  },
});

/** The run a compaction middleware serves. */
export interface CompactionRun {
  session: SessionState;
  plan: AgentPlan;
  runId: string;
  /** Model calls the run has made so far (summary calls are numbered after them). */
  modelCalls(): number;
}

/**
 * The middleware a durable run adds after the permission gate (the gate acts on tool calls, these before model
 * calls): when the plan asks, the kernel's `compaction` over its compactor, archiving what each compaction removes
 * first; and a tracker that lets the transcript query see the run's conversation.
 */
export function durableCompaction(run: CompactionRun): Middleware[] {
  const tracker: Middleware = {
    name: "conversation-tracker",
    beforeModel: (ctx) => {
      if (run.session.current) run.session.current.live = ctx.messages;
    },
  };
  const plan = run.plan.compaction;
  if (!plan) return [tracker];
  const compactor = planCompactor(plan, { provider: summaryModel(run, plan), model: run.plan.model });
  return [compaction(archivingCompactor(compactor, run.session.transcript, archiver(run))), tracker];
}

/**
 * The summary provider: a second durable model whose calls are `callModel` activities (retried, heartbeated), never
 * streamed live (a summary must not show up in the client's answer), with request keys of their own
 * (`<runId>/summary:<n>`) so they never meet the run's calls in the worker's request cache.
 */
function summaryModel(run: CompactionRun, plan: CompactionPlan): ModelProvider {
  const { session } = run;
  return durableModel({
    plan: { ...run.plan, model: plan.summaryModel ?? run.plan.model },
    runId: `${run.runId}/summary`,
    nextCall: () => run.modelCalls() + 1,
    currentTurn: () => session.current?.turn ?? 0,
    requests: session.requests,
    inlineRequests: session.input.inlineRequests === true,
    streamLive: false,
    purpose: "compaction summary",
  });
}

/** Archives through the `archiveTranscript` activity and tells the session and its readers what happened. */
function archiver(run: CompactionRun): TranscriptArchiver {
  const { session, runId } = run;
  return {
    archive: (messages, segment) => archiveTranscript({ sessionId: session.sessionId, segment, messages }),
    compacted(compacted, segment, before) {
      const active = session.current;
      if (active) {
        active.live = compacted;
        active.addedFrom = survivorsFrom(before.slice(active.addedFrom ?? before.length), compacted);
      }
      if (segment.key !== undefined || segment.count === 0) return;
      const message = `${segment.count} messages were compacted without an archive: the worker has no payload storage`;
      session.publish(runId, {
        type: "diagnostic",
        level: "warning",
        code: "transcript_not_archived",
        message,
      });
    },
    failed(error) {
      const message = `compaction skipped this turn: its transcript could not be archived (${applicationCause(error)?.message ?? errorMessage(error)})`;
      session.publish(runId, {
        type: "diagnostic",
        level: "warning",
        code: "transcript_archive_failed",
        message,
      });
    },
  };
}

/**
 * Where the run's own messages begin in the compacted conversation: at the first of them that the compaction
 * kept as it was (the same object), or at its end when it kept none. So `done` still carries the run's input and
 * what followed when those survived, and never the summary of what came before.
 */
function survivorsFrom(runMessages: readonly Message[], compacted: readonly Message[]): number {
  const own = new Set(runMessages);
  const first = compacted.findIndex((message) => own.has(message));
  return first < 0 ? compacted.length : first;
}
