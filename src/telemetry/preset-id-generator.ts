import type { IdGenerator } from "@opentelemetry/sdk-trace-base";
import type { SpanIds } from "./run-span-ids.js";

/**
 * An id generator that hands out preset ids for the span started inside {@link PresetIdGenerator.withIds}, and
 * random ids otherwise. The tracer asks for ids synchronously while it starts a span, so the preset cannot leak
 * to another span.
 */
export class PresetIdGenerator implements IdGenerator {
  private preset: Partial<SpanIds> | undefined;

  /** `random`: the SDK's `RandomIdGenerator`, for every other span. */
  constructor(private readonly random: IdGenerator) {}

  /** Runs `start` (which starts one span) with the given ids preset. */
  withIds<T>(ids: Partial<SpanIds>, start: () => T): T {
    this.preset = { ...ids };
    try {
      return start();
    } finally {
      this.preset = undefined;
    }
  }

  generateTraceId(): string {
    const id = this.preset?.traceId;
    if (this.preset) this.preset.traceId = undefined;
    return id ?? this.random.generateTraceId();
  }

  generateSpanId(): string {
    const id = this.preset?.spanId;
    if (this.preset) this.preset.spanId = undefined;
    return id ?? this.random.generateSpanId();
  }
}
