/**
 * How long a session's next workflow task waits on the sticky queue of the worker that has it cached before any
 * worker may take it (Temporal's default is 10 s). Short, so when that worker dies its sessions move, and answer
 * queries, within about a second; a live worker takes its tasks well within it.
 */
export const DEFAULT_STICKY_QUEUE_TIMEOUT = "1s";

/**
 * The sessions' workflow task timeout: Temporal's default, 10 s, on purpose. A query waits for a workflow task in
 * flight, so a shorter timeout would make a session answer sooner after its worker died in the middle of one; but a
 * task that replays a whole execution on a cold worker (up to the continue-as-new threshold, some hundreds of turns)
 * must fit in it, or it is retried for ever. Measured on 2 cores: a replay of 4,000 events takes 3–6 s.
 */
export const DEFAULT_WORKFLOW_TASK_TIMEOUT = "10s";
