/** Fakes and suites for testing agents without a real model: exported for users' own tests. */
export * from "./providers/fake-provider.js";
export * from "./providers/scripted-provider.js";
export * from "./testing/builders.js";
export * from "./testing/checkpointer-conformance.js";
export * from "./testing/conversation-script.js";
export * from "./testing/openai-server.js";
export * from "./testing/openai-server-conformance.js";
export * from "./testing/provider-conformance.js";
