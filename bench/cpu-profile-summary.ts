// `npx tsx bench/cpu-profile-summary.ts <dir> [bundle-dir]`: groups the self time of every `.cpuprofile` in <dir>
// (one per thread, as `node --cpu-prof --cpu-prof-dir=<dir>` writes them) by what the time was spent on, so the
// durable overhead can be split into the SDK's sandbox and promise hooks, the kernel, the stream, serialisation and
// visibility (docs/decisions/0014). Frames of a workflow bundle are mapped to their sources through the bundle's
// inline source map, looked up among the cached bundles (default .cache/workflow-bundle).
import { readFileSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { SourceMapConsumer, type RawSourceMap } from "source-map";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The categories, first match wins; `source` is the bundle-mapped source path, or the frame's URL. */
const CATEGORIES: [string, RegExp][] = [
  ["SDK promise hook + stack traces", /vm-shared|source-map|^wasm:|source_map|promise_hooks/],
  [
    "visibility (search attributes, details)",
    /src\/workflows\/session\/(session-visibility|current-details)/,
  ],
  ["stream (event log, live output)", /src\/workflows\/stream\/|src\/wire\//],
  ["kernel", /src\/kernel\//],
  ["workflow driver (src/workflows)", /src\/(workflows|contract|plan)\//],
  ["bare loop workflow", /bench\/minimal-loop|the bare loop's/],
  ["serialisation (payloads, protobuf)", /converter|protobufjs|@temporalio\/proto|payload/],
  ["SDK workflow runtime (in the sandbox)", /@temporalio\/workflow\//],
  ["SDK worker thread, vm", /@temporalio\/worker\/lib\/workflow\//],
  ["SDK worker (main thread)", /@temporalio\/(worker|core-bridge|client|common)/],
  ["our activities, client, runtime", /\/src\//],
  // Self time of vm.runInContext: entering the sandbox and running its microtasks (promise reactions).
  ["sandbox entry + microtasks (node:vm)", /^node:vm$/],
  ["node internals", /^node:/],
  ["other libraries", /node_modules/],
];

/** Maps bundle URLs (`file:///…/workflow-bundle-<hash>.js`) to a consumer of their inline source map. */
async function bundleMaps(bundleDir: string): Promise<Map<string, SourceMapConsumer>> {
  const maps = new Map<string, SourceMapConsumer>();
  let files: string[] = [];
  try {
    files = readdirSync(bundleDir).filter((name) => name.endsWith(".js"));
  } catch {
    return maps;
  }
  for (const file of files) {
    const code = readFileSync(join(bundleDir, file), "utf8");
    const at = code.lastIndexOf("//# sourceMappingURL=data:");
    if (at < 0) continue;
    const base64 = code.slice(code.indexOf("base64,", at) + "base64,".length).trim();
    const raw = JSON.parse(Buffer.from(base64, "base64").toString()) as RawSourceMap;
    if (raw.file) maps.set(basename(raw.file), await new SourceMapConsumer(raw));
  }
  return maps;
}

/** Where a frame's code comes from: its original source when it is in a mapped bundle, else its URL. */
function sourceOf(frame: ProfileNode["callFrame"], maps: Map<string, SourceMapConsumer>): string {
  const map = maps.get(basename(frame.url));
  if (!map)
    return frame.url.includes("workflow-bundle")
      ? "workflow bundle (not cached: the bare loop's)"
      : frame.url;
  const position = map.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
  return position.source ?? "workflow bundle (unmapped)";
}

function categoryOf(source: string): string {
  return CATEGORIES.find(([, pattern]) => pattern.test(source))?.[0] ?? "other";
}

/** Self time (ms) by category of one thread's profile; native frames count for the nearest frame with code. */
function summarise(profile: CpuProfile, maps: Map<string, SourceMapConsumer>): Map<string, number> {
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const categoryById = new Map<number, string>();
  const category = (id: number): string => {
    const known = categoryById.get(id);
    if (known) return known;
    const frame = byId.get(id)!.callFrame;
    let found: string;
    if (frame.functionName === "(idle)") found = "idle";
    else if (frame.functionName === "(garbage collector)") found = "garbage collector";
    else if (frame.functionName === "(program)") found = "(program)";
    else if (frame.url !== "") found = categoryOf(sourceOf(frame, maps));
    else found = parent.has(id) ? category(parent.get(id)!) : "native (root)";
    categoryById.set(id, found);
    return found;
  };
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const name = category(id);
    totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  return totals;
}

const [dir, bundleDir = ".cache/workflow-bundle"] = process.argv.slice(2);
if (!dir) {
  console.error("usage: tsx bench/cpu-profile-summary.ts <profile-dir> [bundle-dir]");
  process.exit(2);
}
const maps = await bundleMaps(bundleDir);
for (const file of readdirSync(dir).filter((name) => name.endsWith(".cpuprofile"))) {
  const totals = summarise(JSON.parse(readFileSync(join(dir, file), "utf8")) as CpuProfile, maps);
  const busy = [...totals].filter(([name]) => name !== "idle").reduce((sum, [, ms]) => sum + ms, 0);
  console.log(`\n${file}: ${Math.round(busy)} ms busy`);
  for (const [name, ms] of [...totals].sort((a, b) => b[1] - a[1])) {
    if (name !== "idle" && ms >= 1) console.log(`  ${ms.toFixed(0).padStart(7)} ms  ${name}`);
  }
}
