import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { inject } from "vitest";

/**
 * Worker processes a test kills with SIGKILL (a worker that dies mid-call): each runs a script of test/support as
 * its own Node process on the suite's dev server and prints "worker ready" once it polls.
 */
export class WorkerProcesses {
  private readonly children: ChildProcess[] = [];

  /**
   * @param script the worker script, e.g. `test/support/crash-worker.ts`
   * @param env what every worker of the test gets (TASK_QUEUE, SIDE_EFFECTS, ...), besides the server's address
   */
  constructor(
    private readonly script: string,
    private readonly env: Record<string, string>,
  ) {}

  /** Starts worker `name` (its `WORKER_NAME`) and resolves once it polls. */
  async start(name: string): Promise<ChildProcess> {
    const child = spawn(process.execPath, ["--import", "tsx", this.script], {
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: inject("temporalAddress"),
        TEMPORAL_NAMESPACE: inject("temporalNamespace"),
        ...this.env,
        WORKER_NAME: name,
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    this.children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("worker ready") && resolve());
      child.once("exit", (code) =>
        reject(new Error(`worker ${name} exited with ${code} before it was ready`)),
      );
    });
    return child;
  }

  /** Kills every worker still running (a test's cleanup). */
  killAll(): void {
    for (const child of this.children) if (child.exitCode === null) child.kill("SIGKILL");
  }
}

/** Kills a worker process with SIGKILL and waits until it is gone. */
export async function killHard(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

/** Resolves once a line of `file` (a worker's side-effect log) matches `pattern`. */
export async function waitForLine(file: string, pattern: RegExp): Promise<void> {
  while (!pattern.test(readFileSync(file, "utf8"))) await new Promise((resolve) => setTimeout(resolve, 50));
}
