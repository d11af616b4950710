/**
 * How long a session's next workflow task waits on the sticky queue of the worker that has it cached before any
 * worker may take it (Temporal's default is 10 s). Short, so when that worker dies its sessions move, and answer
 * queries, within about a second; a live worker takes its tasks well within it.
 */
export const DEFAULT_STICKY_QUEUE_TIMEOUT = "1s";

/**
 * The sessions' workflow task timeout (Temporal's default is 10 s). A query waits for a workflow task in flight,
 * so when a worker dies in the middle of one (likely while a model streams: each batch of live output is a
 * workflow task) the session answers queries again after this long. Not shorter: a task that replays a long
 * history on a cold worker must fit in it, or it would be retried for ever.
 */
export const DEFAULT_WORKFLOW_TASK_TIMEOUT = "5s";
