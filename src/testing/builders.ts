export {
  assistantMessage,
  textBlock,
  toolCallBlock,
  toolResultBlock,
  userMessage,
} from "../kernel/messages.js";
export { textTurn, toolCallTurn, type ScriptedToolCall } from "../providers/fake-turns.js";
