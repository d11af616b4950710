import { existsSync, realpathSync } from "node:fs";
import path from "node:path";

/** A path a tool was asked to use that lies outside the sandbox, or is otherwise unusable. */
export class SandboxPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SandboxPathError";
  }
}

/** True when `target` is `root` itself or lies below it (both absolute and normalised). */
function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * The absolute path of `requested` (relative to the sandbox root), or a {@link SandboxPathError} when it would
 * leave the sandbox: absolute paths, `..` segments that climb above the root, and symbolic links that point
 * outside are all refused. The model chooses these paths, so they are untrusted input.
 */
export function resolveSandboxPath(root: string, requested: string): string {
  if (requested.includes("\0")) throw new SandboxPathError("the path contains a NUL character");
  if (path.isAbsolute(requested)) {
    throw new SandboxPathError(
      `'${requested}' is an absolute path; use a path relative to the sandbox folder`,
    );
  }
  const realRoot = realpathSync(root);
  const resolved = path.resolve(realRoot, requested);
  if (!isInside(realRoot, resolved)) {
    throw new SandboxPathError(
      `'${requested}' is outside the sandbox folder; only files inside it can be used`,
    );
  }
  // A link inside the sandbox may still point out of it: check where it really leads.
  if (existsSync(resolved) && !isInside(realRoot, realpathSync(resolved))) {
    throw new SandboxPathError(`'${requested}' links to a place outside the sandbox folder`);
  }
  return resolved;
}
