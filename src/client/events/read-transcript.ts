import type { WorkflowHandle } from "@temporalio/client";
import type { ExternalStorage, PayloadCodec } from "@temporalio/common";
import type { Message } from "../../kernel/vocabulary/messages.js";
import type { TranscriptSegmentRef } from "../../contract/transcript-state.js";
import { readTranscriptSegment } from "../../storage/transcript-blob.js";
import { sessionTranscriptQuery } from "../../contract/messages.js";
import { queryWithRetry } from "../../runtime/query-with-retry.js";
import { workflowTaskFailure } from "../../runtime/workflow-task-failure.js";

/** How often a reader starts over because the session compacted while it was paging. */
const MAX_RESTARTS = 5;

/**
 * A session's whole transcript: the archived segments (via `storage`, the workers' payload storage), then the current
 * conversation's messages not yet archived (paged by `sessionTranscript`). Each message comes once, in order, without
 * compaction output; a stretch compacted by a worker without storage shows as one `system` note.
 */
export async function readTranscript(
  handle: WorkflowHandle,
  storage: ExternalStorage | undefined,
  codecs: readonly PayloadCodec[] = [],
): Promise<Message[]> {
  for (let attempt = 0; ; attempt++) {
    const pages = await readPages(handle);
    if (!pages) {
      if (attempt < MAX_RESTARTS) continue;
      throw new Error(`the session kept compacting while its transcript was read (${MAX_RESTARTS} tries)`);
    }
    const archived: Message[] = [];
    for (const segment of pages.segments) archived.push(...(await segmentMessages(segment, storage, codecs)));
    return [...archived, ...pages.tail];
  }
}

/** Every page of the unarchived tail, or undefined when the session compacted in between (start over). */
async function readPages(
  handle: WorkflowHandle,
): Promise<{ segments: TranscriptSegmentRef[]; tail: Message[] } | undefined> {
  const query = (from: number) =>
    queryWithRetry(
      () => handle.query(sessionTranscriptQuery, { from }),
      () => workflowTaskFailure(handle),
    );
  const first = await query(0);
  const tail = [...first.tail];
  for (let page = first; page.end < page.total;) {
    page = await query(page.end);
    if (page.compactions !== first.compactions || page.total !== first.total) return undefined;
    tail.push(...page.tail);
  }
  return { segments: first.segments, tail };
}

async function segmentMessages(
  segment: TranscriptSegmentRef,
  storage: ExternalStorage | undefined,
  codecs: readonly PayloadCodec[],
): Promise<Message[]> {
  const { key } = segment;
  if (key === undefined) {
    const content = `[${segment.count} messages were compacted without an archive: the worker had no payload storage]`;
    return [{ role: "system", content }];
  }
  if (!storage)
    throw new Error(
      `transcript segment '${key}' is in payload storage, and this client has none configured ` +
        "(give it the workers' storage settings: LITE_AGENT_STORAGE*, or `storage` on AgentClient.connect)",
    );
  return readTranscriptSegment(storage, { ...segment, key }, codecs);
}
