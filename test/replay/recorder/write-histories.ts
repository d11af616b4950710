import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { storedPayloadReferences } from "../history-events.js";
import { historyToJson } from "../history-json.js";
import { HISTORIES_DIR, PAYLOADS_DIR, historyFileName } from "../history-files.js";
import { payloadPlaces } from "./history-stats.js";
import type { RecordedScenario } from "./record-scenario.js";

/**
 * A `callModel` input above this carries a large request (or change of it) inline; the replay test allows
 * INLINE_REQUEST_LIMIT plus 1 KiB.
 */
const SMALL_MODEL_INPUT_BYTES = 8 * 1_024;

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
      for (const reference of storedPayloadReferences(history)) {
        log(
          `    stored externally at event ${reference.place}: ${reference.sizeBytes} bytes (${reference.key})`,
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

/**
 * Replaces the committed blobs (test/replay/payloads) with those the recorded histories reference, copied from
 * the folder the recording stored them in: blobs of earlier recordings and blobs nothing in history names (a
 * query's answer) are not kept. Fails when a referenced blob is missing.
 */
export function writePayloads(
  recorded: readonly RecordedScenario[],
  recordingDir: string,
  log: (line: string) => void,
): string[] {
  mkdirSync(PAYLOADS_DIR, { recursive: true });
  for (const entry of readdirSync(PAYLOADS_DIR, { withFileTypes: true })) {
    // Keeps the folder's .gitattributes (blobs are binary: no line-ending conversion).
    if (!entry.name.startsWith(".")) rmSync(join(PAYLOADS_DIR, entry.name), { recursive: true, force: true });
  }
  const keys = new Set(
    recorded.flatMap(({ histories }) =>
      histories.flatMap((history) => storedPayloadReferences(history).map((reference) => reference.key)),
    ),
  );
  for (const key of keys) {
    const target = join(PAYLOADS_DIR, ...key.split("/"));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(recordingDir, ...key.split("/")), target);
    log(`wrote payloads/${key}: ${statSync(target).size} bytes`);
  }
  return [...keys];
}
