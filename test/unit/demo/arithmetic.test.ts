import { describe, expect, it } from "vitest";
import { ArithmeticError, evaluateArithmetic } from "../../../src/demo/tools/arithmetic.js";

describe("evaluateArithmetic", () => {
  it("follows the usual precedence and associativity", () => {
    expect(evaluateArithmetic("2 + 3 * 4")).toBe(14);
    expect(evaluateArithmetic("(2 + 3) * 4")).toBe(20);
    expect(evaluateArithmetic("10 - 4 - 3")).toBe(3);
    expect(evaluateArithmetic("100 / 10 / 5")).toBe(2);
    expect(evaluateArithmetic("7 % 4")).toBe(3);
  });

  it("treats powers as right-associative and tighter than a leading minus", () => {
    expect(evaluateArithmetic("2 ^ 3 ^ 2")).toBe(512);
    expect(evaluateArithmetic("2 ** 10")).toBe(1024);
    expect(evaluateArithmetic("-2 ^ 2")).toBe(-4);
    expect(evaluateArithmetic("2 ^ -1")).toBe(0.5);
    expect(evaluateArithmetic("--3")).toBe(3);
  });

  it("reads decimals and exponents", () => {
    expect(evaluateArithmetic("1.5e3 + .5")).toBe(1500.5);
  });

  it("offers abs, sqrt, min, max and round", () => {
    expect(evaluateArithmetic("round(10650 / 1140, 2)")).toBe(9.34);
    expect(evaluateArithmetic("round(2.5)")).toBe(3);
    expect(evaluateArithmetic("max(1, 7, 3) + min(4, 2) + abs(-1) + sqrt(16)")).toBe(14);
  });

  it("refuses division and modulo by zero", () => {
    expect(() => evaluateArithmetic("1 / (2 - 2)")).toThrow("division by zero");
    expect(() => evaluateArithmetic("1 % 0")).toThrow("modulo by zero");
  });

  it("refuses names that are not its functions, so nothing can be run", () => {
    expect(() => evaluateArithmetic("process.exit(1)")).toThrow(ArithmeticError);
    expect(() => evaluateArithmetic("constructor")).toThrow("unknown name 'constructor' at position 1");
  });

  it("points at syntax errors", () => {
    expect(() => evaluateArithmetic("2 3")).toThrow("unexpected '3' at position 3");
    expect(() => evaluateArithmetic("(1 + 2")).toThrow("expected ')' at the end");
    expect(() => evaluateArithmetic("1 +")).toThrow("the expression ends too early");
    expect(() => evaluateArithmetic("1 $ 2")).toThrow("unexpected character '$' at position 3");
    expect(() => evaluateArithmetic("   ")).toThrow("the expression is empty");
    expect(() => evaluateArithmetic("round(1, 2, 3)")).toThrow("round takes 1 to 2 argument(s), got 3");
  });

  it("refuses results that are not finite and expressions nested too deep or too long", () => {
    expect(() => evaluateArithmetic("10 ^ 400")).toThrow("not a finite number");
    expect(() => evaluateArithmetic(`${"(".repeat(100)}1${")".repeat(100)}`)).toThrow(
      "nests deeper than 64 levels",
    );
    expect(() => evaluateArithmetic("1+".repeat(600) + "1")).toThrow("longer than 1000 characters");
  });
});
