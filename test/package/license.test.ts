import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as {
  license: string;
  files: string[];
};

describe("the package's license", () => {
  it("is the MIT text package.json names, and ships in the tarball", () => {
    expect(manifest.license).toBe("MIT");
    expect(readFileSync(new URL("LICENSE", root), "utf8")).toMatch(/^MIT License\n/);
    expect(manifest.files).toContain("LICENSE");
  });
});
