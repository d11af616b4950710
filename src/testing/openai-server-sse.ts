import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { errorBody } from "./openai-server-error-body.js";
import type { OpenAIServerCompletion } from "./openai-server-script.js";

/**
 * Streams `chunks` as server-sent events ending in `data: [DONE]`, `delayMs` apart. `dropAfterChunks` destroys the
 * socket after that many chunks; `streamError` sends an error event after `afterChunks` and ends without `[DONE]`.
 * Stops quietly when the client goes away.
 */
export async function streamEvents(
  res: ServerResponse,
  chunks: readonly object[],
  completion: OpenAIServerCompletion,
): Promise<void> {
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
    ...completion.headers,
  });
  res.flushHeaders();
  const gone = new AbortController();
  res.once("close", () => gone.abort());
  // The client may have left while a script function was still computing the answer.
  if (res.destroyed || res.socket?.destroyed !== false) gone.abort();
  const limit = completion.dropAfterChunks ?? completion.streamError?.afterChunks ?? chunks.length;
  for (const [index, chunk] of chunks.slice(0, limit).entries()) {
    if (index > 0 && !(await pause(completion.delayMs ?? 0, gone.signal))) return;
    if (gone.signal.aborted) return;
    await writeEvent(res, JSON.stringify(chunk));
  }
  if (gone.signal.aborted) return;
  if (completion.dropAfterChunks !== undefined) {
    res.socket?.destroy();
    return;
  }
  if (completion.streamError) {
    await writeEvent(res, JSON.stringify({ error: errorBody(completion.streamError, 500) }));
  } else {
    await writeEvent(res, "[DONE]");
  }
  res.end();
}

/** Writes one event and waits until it is handed to the socket, so a following drop cannot discard it. */
function writeEvent(res: ServerResponse, data: string): Promise<void> {
  return new Promise((resolve) => {
    res.write(`data: ${data}\n\n`, () => resolve());
  });
}

/** Waits `ms`; false when the client went away first. */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (ms <= 0) return !signal.aborted;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
