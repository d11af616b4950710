import { describe, expect, it } from "vitest";
import { metricsAddressFromEnv, metricsBindAddress } from "../../../src/telemetry/metrics-runtime.js";
import { tracingFromEnv } from "../../../src/telemetry/tracing-from-env.js";
import { telemetryEvent } from "../../../src/workflows/stream/telemetry-report.js";

describe("telemetry from the environment", () => {
  it("traces only when an OTLP endpoint is set, and not when the SDK or the trace exporter is turned off", async () => {
    expect(await tracingFromEnv({})).toBeUndefined();
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" };
    expect(await tracingFromEnv({ ...endpoint, OTEL_SDK_DISABLED: "true" })).toBeUndefined();
    expect(await tracingFromEnv({ ...endpoint, OTEL_TRACES_EXPORTER: "none" })).toBeUndefined();
    const tracing = await tracingFromEnv(endpoint);
    expect(tracing).toBeDefined();
    // One per process, whoever asks (a worker and a client share it).
    const traces = { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" };
    expect(await tracingFromEnv(traces)).toBe(tracing);
  });

  it("serves metrics on LITE_AGENT_METRICS_PORT: a port listens on every interface, host:port as given", () => {
    expect(metricsAddressFromEnv({})).toBeUndefined();
    expect(metricsAddressFromEnv({ LITE_AGENT_METRICS_PORT: " 9464 " })).toBe("9464");
    expect(metricsBindAddress("9464")).toBe("0.0.0.0:9464");
    expect(metricsBindAddress(9464)).toBe("0.0.0.0:9464");
    expect(metricsBindAddress("127.0.0.1:9464")).toBe("127.0.0.1:9464");
  });
});

describe("telemetryEvent", () => {
  it("keeps the facts telemetry needs and no content", () => {
    const call = { id: "c1", name: "refund", input: { secret: "x" } };
    expect(telemetryEvent({ type: "approval_request", call, reason: "policy" })).toEqual({
      type: "approval_request",
      id: "c1",
      tool: "refund",
    });
    const result = {
      messages: [],
      text: "private",
      usage: { inputTokens: 1, outputTokens: 2 },
      stopReason: "stop" as const,
    };
    expect(telemetryEvent({ type: "done", reason: "stop", result })).toEqual({
      type: "done",
      reason: "stop",
      usage: { inputTokens: 1, outputTokens: 2 },
    });
    expect(telemetryEvent({ type: "text_delta", text: "hi" })).toBeUndefined();
    // A subagent's forwarded events are not this run's turns.
    expect(telemetryEvent({ type: "turn_start", turn: 1, agentId: "sub" })).toBeUndefined();
  });
});
