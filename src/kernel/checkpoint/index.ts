export { foldEvents } from "./fold-events.js";
export { storeEvents } from "./store-events.js";
export { memoryCheckpointer, type MemoryCheckpointerOptions } from "./memory-checkpointer.js";
export {
  recoverInterruptedTools,
  interruptedToolContent,
  type CrashRecovery,
  type RecoveredTool,
} from "./crash-recovery.js";
export { isoTimestamp } from "./iso-timestamp.js";
export { keyedSerialQueue, type KeyedSerialQueue } from "./keyed-serial-queue.js";
export { sessionEventOf } from "./session-event-of.js";
