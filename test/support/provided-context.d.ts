// Values test/support/global-setup.ts hands to every test file through `inject(...)`.
export {};

declare module "vitest" {
  export interface ProvidedContext {
    /** gRPC `host:port` of the suite's Temporal server. */
    temporalAddress: string;
    /** Namespace on that server that tests use. */
    temporalNamespace: string;
    /** Web UI of the suite's Temporal server ("" when it has none, e.g. an external TEMPORAL_ADDRESS without TEMPORAL_UI_URL). */
    temporalUiUrl: string;
    /** URL of the suite's Redis ("" when redis-server is not installed). */
    redisUrl: string;
  }
}
