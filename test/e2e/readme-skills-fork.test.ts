import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  startOpenAIServer,
  type OpenAIServer,
  type OpenAIServerResponse,
} from "../../src/testing/openai-server.js";
import { temporalAddress, uniqueTaskQueue } from "../support/temporal.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const GUIDE = "docs/guides/skills-forks-and-time-travel.md";

/** The guide's `ts` blocks, with the package's imports pointed at this repository's sources. */
function guideSamples(): string[] {
  const guide = readFileSync(path.join(root, GUIDE), "utf8");
  const entries: Record<string, string> = { "": "index.ts", "/worker": "worker.ts", "/client": "client.ts" };
  return [...guide.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) =>
    match[1]!.replace(/from "lite-agent-temporal(\/worker|\/client)?"/g, (_, entry: string | undefined) =>
      JSON.stringify(path.join(root, "src", entries[entry ?? ""]!)).replace(/^/, "from "),
    ),
  );
}

/** The chat requests the server received: each one's model and messages. */
function chats(server: OpenAIServer): { model: string; messages: { role: string; content: unknown }[] }[] {
  return server.requests
    .filter((request) => request.path.startsWith("/v1/chat/completions"))
    .map((request) => request.body as { model: string; messages: { role: string; content: unknown }[] });
}

describe(`the samples of ${GUIDE}`, () => {
  const [skills, fork, notes] = guideSamples();
  // Inside the repository, so the samples' own imports (zod) resolve and vitest compiles them.
  const folder = path.join(root, ".cache", "readme-samples", uniqueTaskQueue("samples"));
  let server: OpenAIServer | undefined;
  const printed: string[] = [];
  const cwd = process.cwd();

  beforeAll(() => {
    mkdirSync(folder, { recursive: true });
    vi.spyOn(console, "log").mockImplementation(
      (...args: unknown[]) =>
        void printed.push(args.map((arg) => (typeof arg === "string" ? arg : JSON.stringify(arg))).join(" ")),
    );
    process.env.OPENAI_API_KEY = "test-key";
    process.env.TEMPORAL_ADDRESS = temporalAddress();
    process.env.TEMPORAL_NAMESPACE = inject("temporalNamespace");
  });
  afterEach(async () => {
    process.chdir(cwd);
    printed.length = 0;
    await server?.close();
  });
  afterAll(() => {
    vi.restoreAllMocks();
    rmSync(folder, { recursive: true, force: true });
  });

  /** Writes a sample and runs it against a scripted OpenAI-compatible server. */
  async function runSample(
    name: string,
    source: string,
    responses: OpenAIServerResponse[],
  ): Promise<OpenAIServer> {
    server = await startOpenAIServer({ responses });
    process.env.OPENAI_BASE_URL = server.baseURL;
    const file = path.join(folder, name);
    writeFileSync(file, source);
    await import(file);
    expect(server.pending).toBe(0);
    return server;
  }

  it("skills: the system prompt lists the skill; load_skill brings its instructions", async () => {
    cpSync(path.join(root, "test/fixtures/skills/base/csv-report"), path.join(folder, "skills/csv-report"), {
      recursive: true,
    });
    const used = await runSample("analyst.ts", skills!, [
      { toolCalls: [{ name: "load_skill", arguments: { name: "csv-report" } }] },
      { text: "sales.csv: 12 rows" },
    ]);
    expect(printed).toEqual(["sales.csv: 12 rows"]);
    const [first, second] = chats(used);
    expect(first!.messages[0]!.content).toContain("- csv-report: Summarise a CSV file as a short report");
    const loaded = second!.messages.find((message) => message.role === "tool");
    expect(loaded?.content).toMatch(/^<skill name="csv-report">\nRead the file, count its rows/);
  });

  it("fork: the fork at turn 2 runs on gpt-4o with turns 1–2 only, and says where it comes from", async () => {
    const used = await runSample("fork.ts", fork!, [
      { text: "Day 1: Alfama. Day 2: Belém." },
      { text: "Day 3: Sintra." },
      { text: "Hostels, trams, picnics." },
      { text: "Sintra stays; hostels instead of hotels." },
    ]);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(
      /^Sintra stays; hostels instead of hotels\. \{"sessionId":"trip-\d+","turn":2\}$/,
    );
    const last = chats(used).at(-1)!;
    expect(last.model).toBe("gpt-4o");
    expect(last.messages.map((message) => message.content)).toEqual([
      "Plan a weekend in Lisbon.",
      "Day 1: Alfama. Day 2: Belém.",
      "Add a day trip.",
      "Day 3: Sintra.",
      "Keep the day trip, but spend less.",
    ]);
  }, 60_000);

  it("time travel: restoring before the second prompt puts the todo list back", async () => {
    process.chdir(folder);
    await runSample("notes.ts", notes!, [
      { toolCalls: [{ name: "write_file", arguments: { path: "notes.md", content: "- [ ] buy milk" } }] },
      { text: "Written." },
      { toolCalls: [{ name: "write_file", arguments: { path: "notes.md", content: "Milk, oh milk" } }] },
      { text: "A poem." },
    ]);
    expect(printed).toEqual(["- [ ] buy milk"]);
    expect(readFileSync(path.join(folder, ".sessions", "notes.jsonl"), "utf8")).not.toContain("poem");
  });
});
