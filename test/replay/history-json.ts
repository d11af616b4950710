import { createRequire } from "node:module";
import type { History } from "@temporalio/common/lib/proto-utils.js";

/** The part of protobufjs' ProtoJSON extension used here. */
interface ProtoJson {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options?: { ignoreUnknownFields?: boolean }): History | null;
}

/** The reflected History type, and the ProtoJSON codec of the very protobufjs copy that defined it. */
function historyCodec(): { type: { fromObject(value: unknown): unknown }; protojson: ProtoJson } {
  // The SDK's historyToJSON/historyFromJSON (@temporalio/common/lib/proto-utils) throw "type must be a Type"
  // when npm installs separate protobufjs copies under @temporalio/common and @temporalio/proto (as it does
  // here): the codec checks `instanceof Type` against its own copy. Loading the codec next to the proto root
  // gives the same canonical JSON in any install layout.
  const requireHere = createRequire(import.meta.url);
  const requireFromProto = createRequire(requireHere.resolve("@temporalio/proto"));
  const root = requireFromProto("@temporalio/proto") as {
    lookupType(name: string): { fromObject(value: unknown): unknown };
  };
  return {
    type: root.lookupType("temporal.api.history.v1.History"),
    protojson: requireFromProto("protobufjs/ext/protojson") as ProtoJson,
  };
}

const codec = historyCodec();

/** A history as canonical proto JSON (the form `temporal workflow show --output json` writes), 2-space indented. */
export function historyToJson(history: History): string {
  return JSON.stringify(codec.protojson.toJson(codec.type, codec.type.fromObject(history)), null, 2);
}

/** Parses canonical proto JSON into a history the replayer accepts (unknown fields from newer servers ignored). */
export function historyFromJson(json: unknown): History {
  const history = codec.protojson.fromJson(codec.type, json, { ignoreUnknownFields: true });
  if (!history) throw new TypeError("not a workflow history");
  return history;
}
