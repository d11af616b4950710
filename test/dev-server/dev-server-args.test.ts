import { describe, expect, it } from "vitest";
import { DEFAULT_SEARCH_ATTRIBUTES } from "../../src/dev-server/default-search-attributes.js";
import { devServerArgs, type DevServerArgsInput } from "../../src/dev-server/dev-server-args.js";

const base: DevServerArgsInput = {
  kind: "cli",
  ip: "127.0.0.1",
  port: 7001,
  uiPort: 8001,
  dbFile: undefined,
  namespace: "default",
  searchAttributes: DEFAULT_SEARCH_ATTRIBUTES,
  logLevel: "warn",
  supportedFlags: new Set(["--ui-disable-news-fetch"]),
};

describe("devServerArgs", () => {
  it("builds the start-dev command with ports, the five search attributes and the log level", () => {
    expect(devServerArgs(base)).toEqual([
      "server", "start-dev", "--ip", "127.0.0.1", "--port", "7001", "--ui-port", "8001", "--ui-disable-news-fetch",
      "--search-attribute", "AgentName=Keyword", "--search-attribute", "AgentStatus=Keyword",
      "--search-attribute", "AgentTurns=Int", "--search-attribute", "AgentTokens=Int",
      "--search-attribute", "AgentCost=Double", "--log-level", "warn",
    ]); // prettier-ignore
  });

  it("adds the SQLite file and a non-default namespace", () => {
    const args = devServerArgs({ ...base, dbFile: "/tmp/x.db", namespace: "agents" });
    expect(args.join(" ")).toContain("--db-filename /tmp/x.db --namespace agents --search-attribute");
  });

  it("runs headless without a UI port, and leaves out flags this binary does not know", () => {
    const args = devServerArgs({ ...base, uiPort: undefined, supportedFlags: new Set() });
    expect(args).toContain("--headless");
    expect(args).not.toContain("--ui-port");
    expect(devServerArgs({ ...base, supportedFlags: new Set() })).not.toContain("--ui-disable-news-fetch");
  });

  it("points the UI at a codec server, and not when headless", () => {
    const codec = "http://127.0.0.1:8888";
    expect(devServerArgs({ ...base, uiCodecEndpoint: codec }).join(" ")).toContain(
      "--ui-port 8001 --ui-disable-news-fetch --ui-codec-endpoint http://127.0.0.1:8888 --search-attribute",
    );
    expect(devServerArgs({ ...base, uiPort: undefined, uiCodecEndpoint: codec })).not.toContain(
      "--ui-codec-endpoint",
    );
  });

  it("passes only the port to the test server", () => {
    expect(devServerArgs({ ...base, kind: "test-server" })).toEqual(["7001"]);
  });
});
