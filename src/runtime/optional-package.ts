/**
 * The optional peer dependencies (package.json `peerDependencies`, optional) and the version `npm install` is told to
 * add: the one this package is tested with (its devDependencies; test/unit/runtime/optional-package.test.ts).
 */
export const OPTIONAL_PACKAGES = {
  "@aws-sdk/client-s3": "3.1175.0",
  ioredis: "^6.0.0",
  "@modelcontextprotocol/sdk": "1.32.2",
  "@temporalio/interceptors-opentelemetry": "1.23.0",
  "@opentelemetry/context-async-hooks": "1.30.1",
  "@opentelemetry/core": "1.30.1",
  "@opentelemetry/resources": "1.30.1",
  "@opentelemetry/sdk-trace-base": "1.30.1",
  "@opentelemetry/exporter-trace-otlp-proto": "0.57.2",
  "@temporalio/worker": "1.23.0",
} as const;

/** The name of an optional peer dependency. */
export type OptionalPackage = keyof typeof OPTIONAL_PACKAGES;

/** A feature was used without the package(s) it needs; the message is one line with the `npm install` to run. */
export class MissingPackageError extends Error {
  override readonly name = "MissingPackageError";

  constructor(
    /** What was used, e.g. "S3 payload storage". */
    readonly feature: string,
    /** The packages the feature needs. */
    readonly packages: readonly OptionalPackage[],
    options?: ErrorOptions,
  ) {
    const specs = packages.map((name) => `${name}@${OPTIONAL_PACKAGES[name]}`);
    super(`${feature} needs ${packages.join(", ")}: npm install ${specs.join(" ")}`, options);
  }
}

/** Whether `error` is Node's "Cannot find package" for one of `packages` (not for a package they load). */
export function isMissingPackage(error: unknown, packages: readonly string[]): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false;
  if (typeof message !== "string") return false;
  return packages.some((name) =>
    [`Cannot find package '${name}'`, `Cannot find module '${name}'`, `Cannot find module '${name}/`].some(
      (text) => message.includes(text),
    ),
  );
}

/** `error` as a {@link MissingPackageError} when it says one of `packages` is not installed; else `error` itself. */
export function missingPackageOr(
  error: unknown,
  feature: string,
  packages: readonly OptionalPackage[],
): unknown {
  return isMissingPackage(error, packages)
    ? new MissingPackageError(feature, packages, { cause: error })
    : error;
}

/**
 * Loads a feature's packages (`load` does the `import()`s); a package of `packages` that is not installed becomes a
 * {@link MissingPackageError}, any other error passes through untouched.
 */
export async function importOptional<T>(
  feature: string,
  packages: readonly OptionalPackage[],
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw missingPackageOr(error, feature, packages);
  }
}

/**
 * Fails at once with a {@link MissingPackageError} when one of `packages` cannot be resolved from this package, for
 * features set up synchronously that `import()` the package on first use.
 */
export function assertInstalled(feature: string, packages: readonly OptionalPackage[]): void {
  for (const name of packages) {
    try {
      import.meta.resolve(name);
    } catch (error) {
      // Anything else (a subpath the exports map does not list) means the package is there.
      const missing = missingPackageOr(error, feature, packages);
      if (missing instanceof MissingPackageError) throw missing;
    }
  }
}
