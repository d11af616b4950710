import { randomBytes } from "node:crypto";
import { defaultPayloadConverter } from "@temporalio/common";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  payloadsToJson,
  startCodecServer,
  type RunningCodecServer,
  type StartCodecServerOptions,
} from "../../src/codec-server/index.js";
import { findFreePort } from "../../src/dev-server/free-port.js";
import { AesGcmPayloadCodec, createKeyRing } from "../../src/encryption/index.js";
import { startCliInProcess, type CliRun, type StartedCli } from "../support/cli-in-process.js";

const MARKER = "codec-access-secret-7114";
const PLAIN_BASE64 = Buffer.from(JSON.stringify({ result: MARKER })).toString("base64");
const UI_ORIGIN = "http://127.0.0.1:8233";
const STRANGER = "http://evil.example:8233";
const TOKEN = "s3cret-token";
const key = new Uint8Array(randomBytes(32));
const KEYS_ENV = { LITE_AGENT_ENCRYPTION_KEYS: `k1=${Buffer.from(key).toString("base64")}` };
const workers = new AesGcmPayloadCodec(createKeyRing([["k1", key]], "k1"));

interface Answer {
  status: number;
  error?: string;
  challenge: string | null;
  /** Whether the plain payload came back: what a refusal must never return. */
  decoded: boolean;
}

/** POSTs an encrypted payload to `<url><path>` with these headers (no `Origin` unless given: the CLI, curl). */
async function decode(url: string, headers: Record<string, string> = {}, path = "/decode"): Promise<Answer> {
  const [payload] = await workers.encode([defaultPayloadConverter.toPayload({ result: MARKER })]);
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Namespace": "default", ...headers },
    body: payloadsToJson([payload!]),
  });
  const text = await response.text();
  const json = JSON.parse(text) as { error?: string };
  return {
    status: response.status,
    ...(json.error === undefined ? {} : { error: json.error }),
    challenge: response.headers.get("www-authenticate"),
    decoded: text.includes(PLAIN_BASE64),
  };
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const WITH_AND_WITHOUT_ORIGIN: Record<string, string>[] = [{}, { Origin: UI_ORIGIN }];

describe("the codec server with a token", () => {
  let locked: RunningCodecServer;
  beforeAll(async () => {
    locked = await startCodecServer({ codec: workers, origins: [UI_ORIGIN], token: TOKEN });
  });
  afterAll(() => locked?.close());

  it("refuses a request without Authorization with 401, with or without an Origin", async () => {
    for (const origin of WITH_AND_WITHOUT_ORIGIN) {
      const answer = await decode(locked.url, origin);
      expect(answer).toMatchObject({ status: 401, decoded: false });
      expect(answer.challenge).toContain("Bearer");
      expect(answer.error).toContain("Authorization: Bearer");
    }
    const notBearer = await decode(locked.url, { Authorization: "Basic czNjcmV0" });
    expect(notBearer).toMatchObject({ status: 401, decoded: false });
  });

  it("refuses another token with 403, with or without an Origin", async () => {
    for (const origin of WITH_AND_WITHOUT_ORIGIN) {
      const answer = await decode(locked.url, { ...origin, ...bearer("s3cret-tokeN") });
      expect(answer).toMatchObject({ status: 403, decoded: false });
      expect(answer.error).toContain("bearer token is not");
    }
  });

  it("refuses an origin it was not given, even with the right token", async () => {
    const answer = await decode(locked.url, { Origin: STRANGER, ...bearer(TOKEN) });
    expect(answer).toMatchObject({ status: 403, decoded: false });
    expect(answer.error).toContain(`origin ${STRANGER} is not allowed`);
  });

  it("asks for the token before it says anything about paths and methods", async () => {
    expect((await decode(locked.url, {}, "/other")).status).toBe(401);
    for (const method of ["GET", "OPTIONS"]) {
      const response = await fetch(`${locked.url}/decode`, { method });
      expect(response.status).toBe(401);
    }
  });

  it("decodes with the right token, for the CLI (no Origin) and for the UI's origin", async () => {
    expect(await decode(locked.url, bearer(TOKEN))).toMatchObject({ status: 200, decoded: true });
    const fromUi = await decode(locked.url, { Origin: UI_ORIGIN, ...bearer(TOKEN) });
    expect(fromUi).toMatchObject({ status: 200, decoded: true });
  });
});

describe("the codec server with insecureNoToken", () => {
  it("decodes without a token for no Origin and the configured one, and refuses other origins", async () => {
    const open = await startCodecServer({ codec: workers, origins: [UI_ORIGIN], insecureNoToken: true });
    try {
      expect(await decode(open.url)).toMatchObject({ status: 200, decoded: true });
      expect(await decode(open.url, { Origin: UI_ORIGIN })).toMatchObject({ status: 200, decoded: true });
      const stranger = await decode(open.url, { Origin: STRANGER });
      expect(stranger).toMatchObject({ status: 403, decoded: false });
    } finally {
      await open.close();
    }
  });

  it("startCodecServer refuses to start without a token or insecureNoToken, or with both", async () => {
    // What a JavaScript caller, or a type cast, can still hand it.
    const bare = { codec: workers, origins: [UI_ORIGIN] };
    const start = (options: object) => startCodecServer(options as StartCodecServerOptions);
    await expect(start(bare)).rejects.toThrow(/needs a token \(or insecureNoToken: true/);
    await expect(start({ ...bare, token: "" })).rejects.toThrow(/needs a token/);
    await expect(start({ ...bare, token: TOKEN, insecureNoToken: true })).rejects.toThrow(/not both/);
  });

  it("startCodecServer without a token binds loopback only: another interface is refused", async () => {
    const open = { codec: workers, origins: [UI_ORIGIN], insecureNoToken: true as const };
    for (const host of ["0.0.0.0", "::", "192.168.1.20"])
      await expect(startCodecServer({ ...open, host })).rejects.toThrow(
        `host '${host}' is not a loopback address (use a token)`,
      );
    const local = await startCodecServer({ ...open, host: "127.0.0.1" });
    await local.close();
  });
});

/** Waits until the served CLI prints its URL; fails with what it printed if it ends first. */
async function servedUrl(cli: StartedCli): Promise<string> {
  const printed = () => `${cli.printed().stdout}${cli.printed().stderr}`;
  await expect.poll(printed, { timeout: 10_000 }).toMatch(/Codec server: \S+/);
  return /Codec server: (\S+)/.exec(printed())![1]!;
}

/** Ctrl-C, as the command's own handler takes it; resolves with the run's end. */
async function interrupt(cli: StartedCli) {
  process.emit("SIGINT", "SIGINT");
  return cli.done;
}

/** Runs a command that must refuse to start; one that serves instead is stopped, and the test fails. */
async function refused(argv: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const cli = startCliInProcess(argv, env);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 5_000)));
  const run = await Promise.race([cli.done, late]).finally(() => clearTimeout(timer));
  if (run) return run;
  await interrupt(cli);
  throw new Error(`it started instead of refusing:\n${cli.printed().stdout}`);
}

describe("lite-agent codec-server", () => {
  it("refuses to start without a token (exit 2), and says what to pass", async () => {
    const run = await refused(["codec-server", "--port", String(await findFreePort())], KEYS_ENV);
    expect(run.code).toBe(2);
    expect(run.stdout).not.toContain("Codec server:");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("no token: pass --token <token> or set LITE_AGENT_CODEC_TOKEN");
    expect(run.stderr).toContain("--insecure-no-token, for local development only");
  });

  it("refuses a token and --insecure-no-token together (exit 2)", async () => {
    const run = await refused(
      ["codec-server", "--port", String(await findFreePort()), "--insecure-no-token"],
      {
        ...KEYS_ENV,
        LITE_AGENT_CODEC_TOKEN: TOKEN,
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--insecure-no-token contradicts the token");
  });

  it("with --insecure-no-token starts, warns loudly, and decodes for a process that sends no Origin", async () => {
    const port = await findFreePort();
    const cli = startCliInProcess(["codec-server", "--port", String(port), "--insecure-no-token"], KEYS_ENV);
    try {
      const url = await servedUrl(cli);
      expect(cli.printed().stderr).toContain(
        `WARNING: --insecure-no-token: anything that reaches ${url} without a browser Origin (any local process, curl) can decrypt every payload`,
      );
      expect(await decode(url)).toMatchObject({ status: 200, decoded: true });
      expect(await decode(url, { Origin: STRANGER })).toMatchObject({ status: 403, decoded: false });
    } finally {
      expect((await interrupt(cli)).code).toBe(0);
    }
  });

  it("refuses --insecure-no-token on an interface other than loopback", async () => {
    const port = String(await findFreePort());
    const run = await refused(
      ["codec-server", "--port", port, "--host", "0.0.0.0", "--insecure-no-token"],
      KEYS_ENV,
    );
    expect(run.code).not.toBe(0);
    expect(run.stdout).not.toContain("Codec server:");
    expect(run.stderr).toContain("host '0.0.0.0' is not a loopback address (use a token)");
  });

  it("takes the token from LITE_AGENT_CODEC_TOKEN and refuses requests without it", async () => {
    const port = await findFreePort();
    const cli = startCliInProcess(["codec-server", "--port", String(port)], {
      ...KEYS_ENV,
      LITE_AGENT_CODEC_TOKEN: TOKEN,
    });
    try {
      const url = await servedUrl(cli);
      expect(cli.printed().stderr).not.toContain("WARNING");
      expect(await decode(url)).toMatchObject({ status: 401, decoded: false });
      expect(await decode(url, bearer("nope"))).toMatchObject({ status: 403, decoded: false });
      expect(await decode(url, bearer(TOKEN))).toMatchObject({ status: 200, decoded: true });
    } finally {
      expect((await interrupt(cli)).code).toBe(0);
    }
  });

  it("refuses to start without keys, and says which variable to set", async () => {
    const run = await refused(["codec-server", "--port", String(await findFreePort()), "--token", TOKEN], {});
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("LITE_AGENT_ENCRYPTION_KEYS");
  });

  it("says so when its port is taken", async () => {
    const taken = await startCodecServer({ codec: workers, origins: [UI_ORIGIN], token: TOKEN });
    try {
      const run = await refused(["codec-server", "--port", String(taken.port), "--token", TOKEN], KEYS_ENV);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`port ${taken.port} is already in use: choose another with --port`);
    } finally {
      await taken.close();
    }
  });
});
