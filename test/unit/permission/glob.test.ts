import { describe, expect, it } from "vitest";
import { compileGlob, globMatch, globToRegExp } from "../../../src/kernel/permission/glob.js";

describe("globMatch", () => {
  it.each([
    ["read_*", "read_file", true],
    ["read_*", "write_file", false],
    ["*_file", "read_file", true],
    ["bash", "bash", true],
    ["bash", "bashx", false],
    ["bash", "Bash", false],
    ["fs.*", "fs.read", true],
    ["fs.*", "fsxread", false],
    ["mcp__*", "mcp__github__search", true],
    ["a+b", "a+b", true],
    ["a|b", "a", false],
  ])("matches whole names: %s vs %s → %s", (pattern, name, expected) => {
    expect(globMatch(pattern, name)).toBe(expected);
  });

  it.each([
    ["*", "a/b", false],
    ["a/*", "a/b", true],
    ["a/*", "a/", false],
    ["a?c", "abc", true],
    ["a?c", "a/c", false],
    ["**", "a/b/c", true],
    ["a/**", "a", true],
    ["a/**", "a/b/c", true],
    ["**/a", "a", true],
    ["**/a", "x/y/a", true],
    ["a/**/b", "a/b", true],
    ["a/**/b", "a/x/y/b", true],
    ["a**", "a/b", false],
    ["src/**/*.ts", "src/x/y.ts", true],
    ["src/**/*.ts", "src/y.js", false],
  ])("treats / as a separator: %s vs %s → %s", (pattern, path, expected) => {
    expect(globMatch(pattern, path)).toBe(expected);
  });

  it.each([
    ["*", ".env", true],
    ["**", ".git/config", true],
    ["*", ".", false],
    ["*", "..", false],
    ["src/**", "src/../etc/passwd", false],
    ["**", "a/../b", false],
  ])("dot:true matches dotfiles but never . or .. segments: %s vs %s → %s", (pattern, path, expected) => {
    expect(globMatch(pattern, path)).toBe(expected);
  });

  it.each([
    ["{read,write}_file", "write_file", true],
    ["{read,write}_file", "edit_file", false],
    ["{a,{b,c}}", "c", true],
    ["{,x}y", "y", true],
    ["*.{js,ts}", "index.ts", true],
    ["{a/b,c}", "a/b", true],
    ["{a}", "a", false],
    ["{a}", "{a}", true],
    ["x{1..3}", "x2", true],
    ["x{1..3}", "x4", false],
    ["x{01..10}", "x07", true],
    ["{a..c}", "b", true],
  ])("expands braces: %s vs %s → %s", (pattern, name, expected) => {
    expect(globMatch(pattern, name)).toBe(expected);
  });

  it.each([
    ["[abc]", "b", true],
    ["[abc]", "d", false],
    ["x[!a]", "xb", true],
    ["x[!a]", "xa", false],
    ["x[^a]", "xa", false],
    ["[a-c]x", "bx", true],
    ["[a-c]x", "dx", false],
    ["[!a]", "/", false],
    ["[]]", "]", true],
    ["[a-]", "-", true],
    ["[[:digit:]]", "7", true],
    ["[[:digit:]]", "x", false],
    ["[a", "[a", true],
  ])("supports character classes: %s vs %s → %s", (pattern, name, expected) => {
    expect(globMatch(pattern, name)).toBe(expected);
  });

  it.each([
    ["\\*", "*", true],
    ["\\*", "a", false],
    ["a\\?", "a?", true],
    ["a\\?", "ab", false],
    ["\\{a,b\\}", "{a,b}", true],
    ["\\{a,b\\}", "a", false],
  ])("honours escapes: %s vs %s → %s", (pattern, name, expected) => {
    expect(globMatch(pattern, name)).toBe(expected);
  });

  it("negates a pattern with a leading !", () => {
    expect(globMatch("!bash", "read")).toBe(true);
    expect(globMatch("!bash", "bash")).toBe(false);
    expect(globMatch("!!bash", "bash")).toBe(true);
  });

  it("never matches the empty string", () => {
    expect(globMatch("*", "")).toBe(false);
    expect(globMatch("!bash", "")).toBe(false);
  });

  it("compiles a pattern once and reuses the matcher", () => {
    expect(compileGlob("cached_*")).toBe(compileGlob("cached_*"));
  });

  it("builds an anchored RegExp", () => {
    const re = globToRegExp("a*");
    expect(re.test("abc")).toBe(true);
    expect(re.test("xabc")).toBe(false);
  });

  it("refuses a brace expansion that would explode", () => {
    expect(() => compileGlob("{1..100000}")).toThrow(/too large/);
  });

  it.each([
    ["x{3..1}", "x2", true],
    ["x{-1..1}", "x-1", true],
    ["x{-1..1}", "x2", false],
    ["{a..c}{1..2}", "c2", true],
    ["v{1..10}", "v10", true],
    ["v{1..10}", "v11", false],
    ["v{08..10}", "v9", false],
  ])(
    "ranges mean their values (descending, negative, padded as written): %s vs %s → %s",
    (pattern, name, expected) => {
      expect(globMatch(pattern, name)).toBe(expected);
    },
  );

  it.each([
    ["a/*", "a/b/", true],
    ["a/**", "a/b/c/", true],
  ])("a trailing / names the same path (picomatch): %s vs %s → %s", (pattern, path, expected) => {
    expect(globMatch(pattern, path)).toBe(expected);
  });

  it.each([
    ["**/x", "a/../x", false],
    ["*/x", "../x", false],
    ["a/**/b", "a/./b", false],
  ])("no wildcard crosses a . or .. segment: %s vs %s → %s", (pattern, path, expected) => {
    expect(globMatch(pattern, path)).toBe(expected);
  });
});
