import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

/** Where Debian's `chromium` package puts the browser; `CHROMIUM_PATH` overrides it. */
export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium";

/** The flags for a quiet headless run: no sandbox (root in CI), no GPU, and no traffic to Google's services. */
export const CHROMIUM_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The system Chromium to drive, or `undefined` when none is installed (the tests never download one). */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;
  return existsSync(path) ? path : undefined;
}

/** A headless browser with one page, on a profile of its own that `close()` deletes. */
export interface HeadlessBrowser {
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

/**
 * Launches the system Chromium headless on a fresh user-data dir, so no state leaks in from an earlier run.
 * The viewport is fixed, so screenshots look the same on every machine.
 */
export async function launchBrowser(executablePath: string): Promise<HeadlessBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), "lite-agent-chromium-"));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      headless: true,
      args: [...CHROMIUM_ARGS],
      viewport: { width: 1400, height: 1000 },
    });
  } catch (error) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** The folder for screenshots and other test artifacts (git-ignored). */
export const TEST_RESULTS_DIR = "test-results";

/** Saves a full-page screenshot as `test-results/<name>.png` and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  const path = join(TEST_RESULTS_DIR, `${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage: true });
  return path;
}
