/** Polls until `done()` holds (every 100 ms, up to `timeoutMs`); fails naming `what` it waited for. */
export async function waitFor(done: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  for (let waited = 0; waited < timeoutMs; waited += 100) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}
