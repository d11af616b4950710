import type { WorkflowStream } from "@temporalio/workflow-streams/workflow";

/**
 * The next offset of a workflow stream, read in the workflow (the library exposes it only as a query for
 * clients). Relies on the pinned 1.23.0 internals; test/workflow covers it, so an upgrade that changes them fails loudly.
 */
export function streamOffset(stream: WorkflowStream): number {
  const internals = stream as unknown as { baseOffset: number; log: unknown[] };
  return internals.baseOffset + internals.log.length;
}
