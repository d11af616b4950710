import { WorkflowNotFoundError, type Client } from "@temporalio/client";
import { describe, expect, it } from "vitest";
import { AgentClient, SessionError, SessionHandle } from "../../../src/client.js";
import { AgentError } from "../../../src/kernel/vocabulary/errors.js";

type Sent = { workflowId: string; name: string; args: unknown[] };

/** A Temporal client whose sessions answer updates with `reply`, and queries with an idle status of `agent`. */
function fakeTemporal(reply: (name: string) => unknown = () => ({})) {
  const sent: Sent[] = [];
  const queries: string[] = [];
  const handle = (workflowId: string) => ({
    workflowId,
    executeUpdate: async (definition: { name: string }, options: { args: unknown[] }) => {
      sent.push({ workflowId, name: definition.name, args: options.args });
      const answer = reply(definition.name);
      if (answer instanceof Error) throw answer;
      return answer;
    },
    query: async (definition: { name: string }) => {
      queries.push(`${workflowId}:${definition.name}`);
      return {
        sessionId: workflowId,
        agent: "support",
        status: "idle",
        pendingApprovals: [],
        pendingQuestions: [],
      };
    },
  });
  const temporal = {
    options: { loadedDataConverter: {} },
    workflow: {
      getHandle: handle,
      executeUpdateWithStart: async (definition: { name: string }, options: { args: unknown[] }) => {
        sent.push({ workflowId: "(with start)", name: definition.name, args: options.args });
        return { runId: (options.args[0] as { runId: string }).runId, offset: 7 };
      },
    },
  } as unknown as Client;
  return { temporal, sent, queries };
}

function client(reply?: (name: string) => unknown, actor?: string) {
  const fake = fakeTemporal(reply);
  const options = { workerWaitMs: false as const, searchAttributes: false, ...(actor ? { actor } : {}) };
  return { ...fake, client: new AgentClient(fake.temporal, options) };
}

describe("client.session(id): a SessionHandle", () => {
  it("names its session and hands out the session's Temporal workflow handle", () => {
    const { client: agents } = client();
    const session = agents.session("s1");
    expect(session).toBeInstanceOf(SessionHandle);
    expect(session.sessionId).toBe("s1");
    expect(session.workflow.workflowId).toBe("s1");
  });

  it("decides with the client's actor unless the call names one", async () => {
    const { client: agents, sent } = client(undefined, "ann");
    await agents.session("s1").approve("c1");
    await agents.session("s1").deny("c2", { actor: "bob", reason: "no" });
    expect(sent.map(({ workflowId, name, args }) => [workflowId, name, args[0]])).toEqual([
      ["s1", "decideToolCall", { callId: "c1", decision: "allow", actor: "ann" }],
      ["s1", "decideToolCall", { callId: "c2", decision: "deny", actor: "bob", reason: "no" }],
    ]);
  });

  it("returns what the session's updates answer", async () => {
    const replies: Record<string, unknown> = {
      cancelRun: { cancelled: ["r1"] },
      interruptRun: { interrupted: true },
    };
    const { client: agents } = client((name) => replies[name]);
    await expect(agents.session("s1").cancel({ runId: "r1" })).resolves.toEqual(["r1"]);
    await expect(agents.session("s1").interrupt("stop")).resolves.toBe(true);
  });

  it("refuses an empty steer before sending anything", async () => {
    const { client: agents, sent } = client();
    await expect(agents.session("s1").steer("  ")).rejects.toThrow(
      new AgentError("steer: the message is empty"),
    );
    expect(sent).toEqual([]);
  });

  it("fails with a SessionError that names the operation and the session", async () => {
    const { client: agents } = client(() => new WorkflowNotFoundError("workflow not found", "s1", undefined));
    const error = await agents
      .session("s1")
      .close()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect(error).toMatchObject({ message: "close: session 's1' not found", operation: "close" });
  });

  it("starts a run with the agent given, or else the session's own agent (read once)", async () => {
    const { client: agents, sent, queries } = client();
    const session = agents.session("s1");
    const started = await session.start("hello", { runId: "r1" });
    await session.start("again", { runId: "r2" });
    expect(started).toEqual({ runId: "r1", offset: 7, sessionId: "s1" });
    expect(queries).toEqual(["s1:sessionStatus"]);
    expect(sent.map(({ args }) => args[0])).toEqual([
      { runId: "r1", agent: "support", input: "hello" },
      { runId: "r2", agent: "support", input: "again" },
    ]);
  });

  it("client.start runs the agent named, in a new session unless one is named", async () => {
    const { client: agents, queries } = client();
    const named = await agents.start("support", "hi", { sessionId: "s9" });
    const fresh = await agents.start("support", "hi");
    expect(named.sessionId).toBe("s9");
    expect(fresh.sessionId).toMatch(/^session-/);
    expect(queries).toEqual([]);
  });
});
