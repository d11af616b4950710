import { open, stat } from "node:fs/promises";
import { resolveSandboxPath, SandboxPathError } from "../sandbox-path.js";

/** What was read of a file. */
export interface SandboxFileText {
  text: string;
  /** The file's full size, in bytes. */
  size: number;
  /** True when only the first `maxBytes` were read. */
  truncated: boolean;
}

/**
 * Reads a text file inside the sandbox, at most `maxBytes` of it. Throws a clear error for a path outside the
 * sandbox, a missing file, a folder, or a binary file.
 */
export async function readSandboxFile(
  sandboxDir: string,
  requested: string,
  maxBytes: number,
): Promise<SandboxFileText> {
  const file = resolveSandboxPath(sandboxDir, requested);
  const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
    throw error.code === "ENOENT" ? new SandboxPathError(`no file '${requested}' in the sandbox`) : error;
  });
  if (info.isDirectory()) throw new SandboxPathError(`'${requested}' is a folder; use list_files`);
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.includes(0)) throw new SandboxPathError(`'${requested}' is a binary file, not text`);
    return { text: bytes.toString("utf8"), size: info.size, truncated: info.size > bytesRead };
  } finally {
    await handle.close();
  }
}
