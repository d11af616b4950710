/** Tool-call codecs: how the kernel's tool calls are written for a model and read back from it. */
export type { DecodedResponse, ToolCallCodec } from "./types.js";
export { nativeCodec } from "./native-codec.js";
export { jsonCodec, type JsonCodecOptions } from "./json-codec.js";
export { reactCodec, type ReactCodecOptions } from "./react-codec.js";
export { decodeJsonResponse } from "./decode-json-response.js";
export { decodeReactResponse } from "./decode-react-response.js";
export { defaultRepairPrompt, repairPrompt } from "./repair-prompt.js";
export { deterministicCallId } from "./call-id.js";
export { toolCatalog } from "./tool-catalog.js";
export { renderPromptHistory, type PromptHistoryRenderers } from "./prompt-history.js";
export { jsonObjectSpan } from "./json-object-span.js";
export { codecFor, type CodecName } from "./codec-for.js";
