import { createHash } from "node:crypto";

/** The ids of one span: a trace id (32 hex) and a span id (16 hex). */
export interface SpanIds {
  traceId: string;
  spanId: string;
}

function hex(text: string, length: number): string {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}

/**
 * The ids of a run's span, derived from the session and run ids: every worker computes the same, so a model call
 * or tool call activity (wherever it runs) is a child of its turn's span without carrying a trace context, and a
 * worker that takes over a run after a crash ends the span the first one opened, under the same id.
 */
export function runSpanIds(sessionId: string, runId: string): SpanIds {
  return { traceId: hex(`trace:${sessionId}:${runId}`, 32), spanId: hex(`run:${sessionId}:${runId}`, 16) };
}

/** The ids of a turn's span (a child of the run's span, in its trace). */
export function turnSpanIds(sessionId: string, runId: string, turn: number): SpanIds {
  return {
    traceId: runSpanIds(sessionId, runId).traceId,
    spanId: hex(`turn:${sessionId}:${runId}:${turn}`, 16),
  };
}
