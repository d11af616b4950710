import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  StorageDriverClaim,
  type Payload,
  type StorageDriverRetrieveContext,
  type StorageDriverStoreContext,
} from "@temporalio/common";
import { blobKey, checkBlobKey, sessionKeyPrefix, type BlobKey } from "./blob-key.js";
import { blobToPayload, payloadToBlob } from "./payload-blob.js";
import { PayloadBlobMissingError } from "./payload-blob-missing-error.js";
import type { SessionBlobDriver } from "./session-blob-driver.js";

/** Options of {@link FilesystemStorageDriver}. */
export interface FilesystemStorageDriverOptions {
  /** The folder that holds the blobs (created on first store). */
  dir: string;
  /** Routing name written into each reference; default `lite-agent-fs`. Keep it stable: old claims name it. */
  name?: string;
}

/**
 * Stores large payloads as files under one folder (`<dir>/<namespace>/sessions/<session id>/<sha256>`), the default
 * for the dev server and single machines; every process reading the session must see it. Writes go via a temp file
 * and a rename (no partial blob on a crash); content addressing makes a retry rewrite nothing (it only touches mtime).
 */
export class FilesystemStorageDriver implements SessionBlobDriver {
  readonly name: string;
  readonly type = "lite-agent.fs";
  readonly dir: string;

  constructor(options: FilesystemStorageDriverOptions) {
    this.dir = path.resolve(options.dir);
    this.name = options.name ?? "lite-agent-fs";
  }

  get location(): string {
    return this.dir;
  }

  /** The file of a key. */
  fileOf(key: BlobKey): string {
    return path.join(this.dir, ...key.split("/"));
  }

  async store(context: StorageDriverStoreContext, payloads: Payload[]): Promise<StorageDriverClaim[]> {
    return Promise.all(
      payloads.map(async (payload) => {
        context.abortSignal?.throwIfAborted();
        const blob = payloadToBlob(payload);
        const key = blobKey(context.target, blob.digest);
        await this.write(this.fileOf(key), blob.bytes);
        return new StorageDriverClaim({ key, bytes: String(blob.bytes.length) });
      }),
    );
  }

  async retrieve(context: StorageDriverRetrieveContext, claims: StorageDriverClaim[]): Promise<Payload[]> {
    return Promise.all(
      claims.map(async (claim) => {
        context.abortSignal?.throwIfAborted();
        const key = claim.claimData.key;
        const digest = checkBlobKey(key);
        const file = this.fileOf(key!);
        const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
          if (error.code === "ENOENT") throw new PayloadBlobMissingError(this.name, key!, file);
          throw error;
        });
        return blobToPayload(bytes, digest, `'${key}' (${file})`);
      }),
    );
  }

  async listSessionBlobs(namespace: string, sessionId: string): Promise<BlobKey[]> {
    const prefix = sessionKeyPrefix(namespace, sessionId);
    const names = await readdir(this.fileOf(prefix.slice(0, -1))).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return [];
      throw error;
    });
    return names.filter((name) => !name.includes(".tmp-")).map((name) => `${prefix}${name}`);
  }

  async deleteSessionBlobs(namespace: string, sessionId: string): Promise<number> {
    const keys = await this.listSessionBlobs(namespace, sessionId);
    await rm(this.fileOf(sessionKeyPrefix(namespace, sessionId).slice(0, -1)), {
      recursive: true,
      force: true,
    });
    return keys.length;
  }

  private async write(file: string, bytes: Uint8Array): Promise<void> {
    const existing = await stat(file).catch(() => undefined);
    if (existing?.size === bytes.length) {
      // Stored again (a retry, or the same content in a later run): its age restarts, as an S3 overwrite's does,
      // so age-based cleanup counts from the last time any run referred to it.
      const now = new Date();
      await utimes(file, now, now).catch(() => undefined);
      return;
    }
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.tmp-${process.pid}-${randomUUID().slice(0, 8)}`;
    try {
      await writeFile(temporary, bytes);
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}
