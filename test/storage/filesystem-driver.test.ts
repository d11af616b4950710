import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FilesystemStorageDriver } from "../../src/storage/filesystem-driver.js";
import { jsonPayload, session, sessionBlobDriverCases } from "./driver-cases.js";

describe("filesystem storage driver", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "payloads-"));
  const driver = new FilesystemStorageDriver({ dir });

  sessionBlobDriverCases(() => driver);

  it("keeps blobs as files under <dir>/<namespace>/sessions/<session>/, with no temporary files left", async () => {
    const [claim] = await driver.store({ target: session("files") }, [jsonPayload("on disk")]);
    const folder = path.join(dir, "default", "sessions", "files");
    expect(readdirSync(folder)).toEqual([claim!.claimData.key!.split("/").at(-1)]);
    expect(driver.fileOf(claim!.claimData.key!)).toBe(path.join(folder, readdirSync(folder)[0]!));
  });

  it("reports a blob whose bytes changed instead of handing them on", async () => {
    const [claim] = await driver.store({ target: session("corrupt") }, [jsonPayload("original")]);
    writeFileSync(driver.fileOf(claim!.claimData.key!), "tampered");
    await expect(driver.retrieve({}, [claim!])).rejects.toThrow(/corrupt: its SHA-256/);
  });
});
