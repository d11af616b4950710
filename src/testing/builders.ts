export {
  assistantMessage,
  textBlock,
  toolCallBlock,
  toolResultBlock,
  userMessage,
} from "../kernel/vocabulary/messages.js";
export { textTurn, toolCallTurn, type ScriptedToolCall } from "../providers/fake-turns.js";
