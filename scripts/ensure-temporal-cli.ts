// Makes sure a Temporal CLI binary is available (found, or installed into .cache/temporal) before the tests run,
// so an install failure is reported once, clearly, instead of inside the test setup.
import { requireTemporalCli } from "../src/dev-server/index.js";

const binary = await requireTemporalCli({ install: true });
console.log(`Temporal CLI: ${binary.path} (${binary.kind}, from ${binary.source})`);
