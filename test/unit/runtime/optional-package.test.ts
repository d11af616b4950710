import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  assertInstalled,
  importOptional,
  isMissingPackage,
  MissingPackageError,
  OPTIONAL_PACKAGES,
  type OptionalPackage,
} from "../../../src/runtime/optional-package.js";

/** The parts of package.json the test reads. */
interface Manifest {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
}

const manifest = JSON.parse(
  readFileSync(new URL("../../../package.json", import.meta.url), "utf8"),
) as Manifest;

/** An error as Node's resolver throws it for a package that is not installed. */
function notFound(name: string): Error {
  return Object.assign(new Error(`Cannot find package '${name}' imported from /app/dist/x.js`), {
    code: "ERR_MODULE_NOT_FOUND",
  });
}

describe("optional packages", () => {
  it("are the package's optional peers, told to install at the version its tests use", () => {
    const names = Object.keys(OPTIONAL_PACKAGES);
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual([...names].sort());
    for (const name of names) {
      expect(manifest.peerDependenciesMeta[name], name).toEqual({ optional: true });
      expect(manifest.devDependencies[name], name).toBe(OPTIONAL_PACKAGES[name as OptionalPackage]);
      expect(manifest.dependencies, name).not.toHaveProperty(name);
    }
  });

  it("a missing one becomes one line naming the feature, the packages and the npm install to run", async () => {
    const load = () => Promise.reject(notFound("@aws-sdk/client-s3"));
    const error = await importOptional("S3 payload storage", ["@aws-sdk/client-s3"], load).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(MissingPackageError);
    expect((error as Error).message).toBe(
      "S3 payload storage needs @aws-sdk/client-s3: npm install @aws-sdk/client-s3@3.1175.0",
    );
    expect((error as Error).cause).toEqual(notFound("@aws-sdk/client-s3"));
    const tracing = new MissingPackageError("Tracing", ["@opentelemetry/core", "@opentelemetry/resources"]);
    expect(tracing.message).toBe(
      "Tracing needs @opentelemetry/core, @opentelemetry/resources: " +
        "npm install @opentelemetry/core@1.30.1 @opentelemetry/resources@1.30.1",
    );
    expect(tracing.message).not.toContain("\n");
  });

  it("other errors pass through untouched: a package the named one loads, a failing module", async () => {
    const inner = notFound("some-dependency-of-ioredis");
    await expect(importOptional("Redis streaming", ["ioredis"], () => Promise.reject(inner))).rejects.toBe(
      inner,
    );
    const broken = new SyntaxError("Unexpected token");
    await expect(importOptional("Redis streaming", ["ioredis"], () => Promise.reject(broken))).rejects.toBe(
      broken,
    );
    await expect(importOptional("Redis streaming", ["ioredis"], async () => 42)).resolves.toBe(42);
  });

  it("recognises Node's errors: import() and require() of a missing package, a missing subpath's package", async () => {
    const real = await import("no-such-package-lite-agent" as string).catch((error: unknown) => error);
    expect(isMissingPackage(real, ["no-such-package-lite-agent"])).toBe(true);
    const required = Object.assign(new Error("Cannot find module 'ioredis/built/x'"), {
      code: "MODULE_NOT_FOUND",
    });
    expect(isMissingPackage(required, ["ioredis"])).toBe(true);
    expect(isMissingPackage(notFound("ioredis-other"), ["ioredis"])).toBe(false);
    expect(isMissingPackage(new Error("Cannot find package 'ioredis'"), ["ioredis"])).toBe(false);
    expect(isMissingPackage(undefined, ["ioredis"])).toBe(false);
  });

  it("assertInstalled passes for installed packages (this repository's dev dependencies)", () => {
    expect(() =>
      assertInstalled("Everything", Object.keys(OPTIONAL_PACKAGES) as OptionalPackage[]),
    ).not.toThrow();
  });
});
