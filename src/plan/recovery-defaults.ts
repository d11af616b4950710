/**
 * How long a session's next workflow task waits on the sticky queue of the worker that has it cached before any
 * worker may take it (Temporal's default is 10 s). Short, so when that worker dies its sessions move, and answer
 * queries, within about a second; a live worker takes its tasks well within it.
 */
export const DEFAULT_STICKY_QUEUE_TIMEOUT = "1s";

/**
 * The sessions' workflow task timeout, Temporal's default on purpose: a shorter one would let a session answer queries
 * sooner after its worker died mid-task, but a task replaying a whole execution on a cold worker (up to the
 * continue-as-new threshold) must fit in it, or it is retried for ever.
 */
export const DEFAULT_WORKFLOW_TASK_TIMEOUT = "10s";
