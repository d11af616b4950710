/** Background tasks: a registry of joinable and detached work, its output ring buffer and completion notes. */
export type * from "./types.js";
export { createBackgroundTasks, type BackgroundTasksOptions } from "./background-tasks.js";
export { DEFAULT_BACKGROUND_BUFFER_CHARS, TRUNCATED_MARKER } from "./detached-outputs.js";
export { RingBuffer, type RingBufferSlice } from "./ring-buffer.js";
export { backgroundCompletionMessage } from "./completion-message.js";
