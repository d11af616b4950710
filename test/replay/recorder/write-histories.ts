import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { historyToJson } from "../history-json.js";
import { HISTORIES_DIR, historyFileName } from "../history-files.js";
import { payloadPlaces } from "./history-stats.js";
import type { RecordedScenario } from "./record-scenario.js";

/** A `callModel` input above this is carrying the request inline, which the workflow must not do. */
const SMALL_MODEL_INPUT_BYTES = 1_024;

/** Writes (overwrites) every recorded history as canonical JSON and prints what it wrote. */
export function writeHistories(recorded: readonly RecordedScenario[], log: (line: string) => void): string[] {
  const written: string[] = [];
  for (const { spec, sessionId, histories } of recorded) {
    histories.forEach((history, index) => {
      const file = historyFileName(spec.name, index, histories.length);
      const json = `${historyToJson(history)}\n`;
      writeFileSync(join(HISTORIES_DIR, file), json);
      written.push(file);
      log(
        `wrote ${file}: ${Buffer.byteLength(json)} bytes, ${history.events?.length ?? 0} events (session ${sessionId})`,
      );
      for (const place of payloadPlaces(history).slice(0, 4)) {
        log(
          `    ${place.place}: ${place.count} payloads, ${place.totalBytes} bytes (largest ${place.maxBytes})`,
        );
      }
      const model = payloadPlaces(history).find(
        (place) => place.place === "activityTaskScheduled(callModel) input",
      );
      if (model && model.maxBytes > SMALL_MODEL_INPUT_BYTES)
        log(`    WARNING: a callModel input is ${model.maxBytes} bytes`);
    });
  }
  const stray = readdirSync(HISTORIES_DIR).filter((file) => !written.includes(file));
  if (stray.length > 0) log(`not written by this recording (kept): ${stray.join(", ")}`);
  return written;
}
