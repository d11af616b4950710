export {
  codecRequestHandler,
  type CodecServerAccess,
  type CodecServerSettings,
} from "./codec-request-handler.js";
export { startCodecServer, type RunningCodecServer, type StartCodecServerOptions } from "./codec-server.js";
export { PayloadsJsonError, parsePayloadsJson, payloadsToJson } from "./payloads-json.js";
