import { open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Replaces `file` with `text` through a temporary file and a rename, so a crash leaves either the old or the new
 * content, never a half-written log. With `durable`, the data and the directory entry are synced first.
 */
export async function writeFileAtomic(file: string, text: string, durable: boolean): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const handle = await open(temporary, "w");
    try {
      await handle.writeFile(text, "utf8");
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  if (durable) await syncDirectory(dirname(file));
}

/** Syncs a directory so a created or renamed entry in it survives a power loss. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
