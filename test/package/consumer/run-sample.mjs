// What the README and guide harnesses do: point the OpenAI provider at a scripted OpenAI-compatible server, import the
// compiled sample with its stdout captured, and return what it printed.

/** Runs `module` (a compiled README or guide sample) against `server`; resolves with what the sample printed. */
export async function runSample(server, module) {
  process.env.OPENAI_BASE_URL = server.baseURL;
  process.env.OPENAI_API_KEY = "test-key";
  let printed = "";
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk) => {
    printed += String(chunk);
    return true;
  };
  try {
    await import(module);
  } finally {
    process.stdout.write = write;
  }
  return printed;
}

/** The chat-completion requests the server received. */
export function chatRequests(server) {
  return server.requests.filter((request) => request.path.startsWith("/v1/chat/completions"));
}
