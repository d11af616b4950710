import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { findFreePort } from "../../src/dev-server/free-port.js";
import { pipInstall } from "./pip-install.js";

/** The moto release the tests install (PyPI `moto[server]`, an S3-compatible server in Python). */
export const MOTO_VERSION = "5.2.5";

/** A running moto server. */
export interface MotoServer {
  /** `http://127.0.0.1:<port>`: the S3 endpoint (path-style). */
  endpoint: string;
  stop(): Promise<void>;
}

/** Where moto is installed: `<project>/.cache/moto-<version>` (git-ignored, reused between runs). */
export function motoDir(projectDir = process.cwd()): string {
  return path.join(projectDir, ".cache", `moto-${MOTO_VERSION}`);
}

const installed = (dir: string) => existsSync(path.join(dir, "moto", "server.py"));

/** Installs moto from PyPI into the project cache when it is missing (see pip-install.ts). */
export function installMoto(dir = motoDir(), log: (line: string) => void = () => undefined): Promise<string> {
  return pipInstall({ requirement: `moto[server]==${MOTO_VERSION}`, dir, installed }, log);
}

/*
 * moto's own entry point, run by a wrapper that exits when its stdin closes: stdin is a pipe from this process,
 * so the server goes away with the test process even when that one is killed and never runs its teardown.
 */
const WRAPPER = [
  "import os, sys, threading",
  "threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()",
  "from moto.server import main",
  "main(sys.argv[1:])",
].join("\n");

/** Starts moto's S3-compatible server on a free port (installing it first when needed) and waits until it answers. */
export async function startMotoServer(log: (line: string) => void = () => undefined): Promise<MotoServer> {
  const dir = await installMoto(motoDir(), log);
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await findFreePort();
    const endpoint = `http://127.0.0.1:${port}`;
    const child = spawn("python3", ["-c", WRAPPER, "-H", "127.0.0.1", "-p", String(port)], {
      env: { ...process.env, PYTHONPATH: dir, PYTHONUNBUFFERED: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    try {
      await waitUntilReady(endpoint, child, () => output);
      return { endpoint, stop: () => stopChild(child) };
    } catch (error) {
      lastError = error;
      await stopChild(child);
    }
  }
  throw lastError;
}

async function waitUntilReady(endpoint: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `moto server exited (${child.exitCode ?? child.signalCode}) before it answered: ${output()}`,
      );
    }
    try {
      const response = await fetch(`${endpoint}/moto-api/`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`moto server did not answer at ${endpoint} within 30 s: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.stdin?.end();
    child.kill("SIGTERM");
  });
}
