import { describe, expect, it } from "vitest";
import { AgentRegistry } from "../../../src/activities/agent-registry.js";
import { checkMcpServers, type McpServerConfig } from "../../../src/plan/mcp-servers.js";
import { type McpToolInfo } from "../../../src/contract/mcp-tool-info.js";
import { MAX_TOOL_NAME_LENGTH, mcpToolName, mcpToolPlans } from "../../../src/plan/mcp-tool-plans.js";
import { defineAgent, toAgentPlan } from "../../../src/define-agent.js";

const DEFAULTS = { timeoutMs: 300_000, heartbeatTimeoutMs: 10_000 };
const SCHEMA = { type: "object", properties: {} };
const tool = (name: string, annotations?: McpToolInfo["annotations"]): McpToolInfo => ({
  name,
  description: `does ${name}`,
  inputSchema: SCHEMA,
  ...(annotations ? { annotations } : {}),
});
const stdio: McpServerConfig = { command: "node", args: ["server.js"] };

describe("mcpToolName", () => {
  it("prefixes the server and keeps the model's charset: other characters become '_'", () => {
    expect(mcpToolName("fs", "read_file")).toBe("fs__read_file");
    expect(mcpToolName("everything", "get-sum")).toBe("everything__get-sum");
    expect(mcpToolName("docs", "search.pages/v2 beta")).toBe("docs__search_pages_v2_beta");
  });

  it("cuts a name over 64 characters and ends it with a hash of the MCP name, the same every time", () => {
    const long = `fetch_${"x".repeat(80)}`;
    const name = mcpToolName("web", long);
    expect(name).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(name).toMatch(/^web__fetch_x+_[0-9a-f]{8}$/);
    expect(mcpToolName("web", long)).toBe(name);
    expect(mcpToolName("web", `${long}y`)).not.toBe(name);
  });

  it("gives a name already taken (two MCP names that sanitise alike) the hashed form", () => {
    const first = mcpToolName("s", "a.b");
    expect(first).toBe("s__a_b");
    const second = mcpToolName("s", "a_b", new Set([first]));
    expect(second).toMatch(/^s__a_b_[0-9a-f]{8}$/);
  });
});

describe("mcpToolPlans", () => {
  it("offers only the allowed tools (names or globs), sorted, each with its spec and server reference", () => {
    const config = { ...stdio, allow: ["read_*", "echo"] };
    const plans = mcpToolPlans(
      "fs",
      config,
      [tool("write_file"), tool("read_text_file"), tool("echo"), tool("read_file")],
      DEFAULTS,
    );
    expect(plans.map((plan) => plan.name)).toEqual(["fs__echo", "fs__read_file", "fs__read_text_file"]);
    expect(plans[0]).toEqual({
      name: "fs__echo",
      description: "does echo",
      parameters: SCHEMA,
      retry: "at-most-once",
      timeoutMs: 300_000,
      heartbeatTimeoutMs: 10_000,
      mcp: { server: "fs", tool: "echo" },
    });
  });

  it("makes a tool idempotent only when it is read-only or idempotent by its annotations, and the server is trusted", () => {
    const tools = [
      tool("read", { readOnlyHint: true }),
      tool("put", { readOnlyHint: false, idempotentHint: true, destructiveHint: true }),
      tool("delete", { destructiveHint: true }),
      tool("bare"),
    ];
    const retry = (config: McpServerConfig) =>
      Object.fromEntries(
        mcpToolPlans("s", config, tools, DEFAULTS).map((plan) => [plan.mcp!.tool, plan.retry]),
      );
    expect(retry(stdio)).toEqual({
      read: "idempotent",
      put: "idempotent",
      delete: "at-most-once",
      bare: "at-most-once",
    });
    expect(retry({ ...stdio, trustAnnotations: false })).toEqual({
      read: "at-most-once",
      put: "at-most-once",
      delete: "at-most-once",
      bare: "at-most-once",
    });
  });

  it("records the annotations, takes the server's timeout, and describes a tool that has no description", () => {
    const listed: McpToolInfo = { name: "t", inputSchema: SCHEMA, annotations: { readOnlyHint: true } };
    const [plan] = mcpToolPlans("s", { ...stdio, timeoutMs: 1_000 }, [listed], DEFAULTS);
    expect(plan).toMatchObject({
      description: "The 't' tool of MCP server 's'.",
      timeoutMs: 1_000,
      mcp: { server: "s", tool: "t", annotations: { readOnlyHint: true } },
    });
  });
});

describe("checkMcpServers", () => {
  it.each([
    [{ my_server: stdio }, "MCP server 'my_server' has a bad name"],
    [{ "-x": stdio }, "MCP server '-x' has a bad name"],
    [{ ["a".repeat(33)]: stdio }, "has a bad name"],
    [{ s: { command: "node", url: "http://x" } }, "needs exactly one of 'command' (stdio) or 'url'"],
    [{ s: {} }, "needs exactly one of 'command' (stdio) or 'url'"],
    [{ s: { url: "ftp://host/mcp" } }, "has a 'url' that is not an http(s) URL: ftp://host/mcp"],
    [{ s: { command: "" } }, "has an empty 'command'"],
    [{ s: { command: "node", allow: "echo" } }, "has an 'allow' that is not a list of names"],
    [{ s: { command: "node", timeoutMs: 0 } }, "has a 'timeoutMs' that is not a positive number"],
    [
      { s: { command: "node", listTimeoutMs: 0 } },
      "has a 'listTimeoutMs' that is not a number of ms from 1 to 100000",
    ],
    [{ s: { command: "node", listTimeoutMs: 120_000 } }, "has a 'listTimeoutMs' that is not a number of ms"],
    [{ s: { command: "node", env: { KEY: () => "secret" } } }, "is not plain data at config.env.KEY"],
  ])("refuses %j: %s", (servers, message) => {
    expect(checkMcpServers(servers as unknown as Record<string, McpServerConfig>)).toContain(message);
  });

  it("accepts stdio and HTTP entries", () => {
    const servers = {
      fs: stdio,
      "remote-1": { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer t" } },
    };
    expect(checkMcpServers(servers)).toBeUndefined();
  });
});

describe("an agent's mcpServers", () => {
  it("are checked by defineAgent, naming the agent", () => {
    expect(() => defineAgent({ name: "a", model: "m", mcpServers: { bad_name: stdio } })).toThrow(
      "agent 'a': MCP server 'bad_name' has a bad name",
    );
  });

  it("reach the plan (and so the history) by name only: commands, environments and headers stay on the worker", () => {
    const agent = defineAgent({
      name: "a",
      model: "m",
      mcpServers: {
        fs: { command: "node", args: ["fs.js"], env: { TOKEN: "secret-env" } },
        remote: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer secret-header" } },
      },
    });
    const plan = toAgentPlan(agent);
    expect(plan.mcpServers).toEqual(["fs", "remote"]);
    expect(JSON.stringify(plan)).not.toMatch(/secret|fs\.js|example\.com/);
  });
});

describe("the worker's registry", () => {
  it("refuses an agent whose mcpServers are wrong, even one not made by defineAgent", () => {
    const raw = { name: "raw", model: "m", mcpServers: { s: { command: "node", url: "http://x" } } };
    expect(() => new AgentRegistry([raw as never], {})).toThrow(
      "agent 'raw': MCP server 's' needs exactly one of 'command' (stdio) or 'url'",
    );
  });
});
