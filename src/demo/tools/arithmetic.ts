/** An expression that cannot be evaluated: bad syntax, an unknown name, a division by zero. */
export class ArithmeticError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ArithmeticError";
  }
}

type Token =
  { kind: "number"; value: number; at: number } | { kind: "name" | "op"; text: string; at: number };

const TOKEN =
  /\s*(?:(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|([A-Za-z_]\w*)|(\*\*|[-+*/%^(),]))/y;
const MAX_LENGTH = 1_000;
const MAX_DEPTH = 64;

// A Map, not an object literal: a name like `constructor` must not find Object.prototype's members.
const FUNCTIONS = new Map<string, { arity: [number, number]; apply: (...args: number[]) => number }>([
  ["abs", { arity: [1, 1], apply: Math.abs }],
  ["sqrt", { arity: [1, 1], apply: Math.sqrt }],
  ["min", { arity: [1, 32], apply: Math.min }],
  ["max", { arity: [1, 32], apply: Math.max }],
  [
    "round",
    { arity: [1, 2], apply: (value, digits = 0) => Number(value.toFixed(Math.max(0, Math.min(12, digits)))) },
  ],
]);

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    const rest = source.slice(TOKEN.lastIndex);
    if (rest.trim() === "") break;
    const at = TOKEN.lastIndex + rest.length - rest.trimStart().length;
    const match = TOKEN.exec(source);
    if (!match) throw new ArithmeticError(`unexpected character '${source[at]}' at position ${at + 1}`);
    const start = match.index + match[0].length - (match[1] ?? match[2] ?? match[3] ?? "").length;
    if (match[1] !== undefined) tokens.push({ kind: "number", value: Number(match[1]), at: start });
    else if (match[2] !== undefined) tokens.push({ kind: "name", text: match[2], at: start });
    else tokens.push({ kind: "op", text: match[3] === "**" ? "^" : (match[3] ?? ""), at: start });
  }
  return tokens;
}

/** A recursive-descent parser that evaluates as it parses: + - * / % ^ (or **), parentheses, a few functions. */
class Evaluator {
  private position = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  run(): number {
    const value = this.sum();
    const extra = this.tokens[this.position];
    if (extra) throw new ArithmeticError(`unexpected '${describe(extra)}' at position ${extra.at + 1}`);
    return value;
  }

  private sum(): number {
    let value = this.product();
    for (let op = this.accept("+", "-"); op; op = this.accept("+", "-")) {
      value = op === "+" ? value + this.product() : value - this.product();
    }
    return value;
  }

  private product(): number {
    let value = this.unary();
    for (let op = this.accept("*", "/", "%"); op; op = this.accept("*", "/", "%")) {
      const right = this.unary();
      if (op !== "*" && right === 0)
        throw new ArithmeticError(op === "/" ? "division by zero" : "modulo by zero");
      value = op === "*" ? value * right : op === "/" ? value / right : value % right;
    }
    return value;
  }

  private unary(): number {
    const op = this.accept("+", "-");
    if (!op) return this.power();
    return this.nested(() => (op === "-" ? -this.unary() : this.unary()));
  }

  // Right-associative, and binds tighter than a leading minus: -2^2 is -4, 2^3^2 is 2^9.
  private power(): number {
    const base = this.primary();
    return this.accept("^") ? base ** this.nested(() => this.unary()) : base;
  }

  private primary(): number {
    const token = this.tokens[this.position++];
    if (!token) throw new ArithmeticError("the expression ends too early");
    if (token.kind === "number") return token.value;
    if (token.kind === "name") return this.call(token.text, token.at);
    if (token.text !== "(")
      throw new ArithmeticError(`unexpected '${token.text}' at position ${token.at + 1}`);
    const value = this.nested(() => this.sum());
    this.expect(")");
    return value;
  }

  private call(name: string, at: number): number {
    const fn = FUNCTIONS.get(name.toLowerCase());
    if (!fn)
      throw new ArithmeticError(
        `unknown name '${name}' at position ${at + 1}; functions: ${[...FUNCTIONS.keys()].join(", ")}`,
      );
    this.expect("(");
    const args = [this.nested(() => this.sum())];
    while (this.accept(",")) args.push(this.nested(() => this.sum()));
    this.expect(")");
    const [least, most] = fn.arity;
    if (args.length < least || args.length > most)
      throw new ArithmeticError(
        `${name} takes ${least === most ? least : `${least} to ${most}`} argument(s), got ${args.length}`,
      );
    return fn.apply(...args);
  }

  private nested(parse: () => number): number {
    if (++this.depth > MAX_DEPTH)
      throw new ArithmeticError(`the expression nests deeper than ${MAX_DEPTH} levels`);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private accept(...ops: string[]): string | undefined {
    const token = this.tokens[this.position];
    if (token?.kind !== "op" || !ops.includes(token.text)) return undefined;
    this.position++;
    return token.text;
  }

  private expect(op: string): void {
    if (this.accept(op)) return;
    const token = this.tokens[this.position];
    throw new ArithmeticError(
      token
        ? `expected '${op}' at position ${token.at + 1}, found '${describe(token)}'`
        : `expected '${op}' at the end`,
    );
  }
}

function describe(token: Token): string {
  return token.kind === "number" ? String(token.value) : token.text;
}

/**
 * Evaluates an arithmetic expression without `eval`: numbers, `+ - * / %`, `^` or `**`, parentheses, and
 * `abs sqrt min max round(x, digits)`. Throws {@link ArithmeticError} with the problem's position, and for division by
 * zero or a non-finite result.
 */
export function evaluateArithmetic(expression: string): number {
  if (expression.length > MAX_LENGTH)
    throw new ArithmeticError(`the expression is longer than ${MAX_LENGTH} characters`);
  const tokens = tokenize(expression);
  if (tokens.length === 0) throw new ArithmeticError("the expression is empty");
  const value = new Evaluator(tokens).run();
  if (!Number.isFinite(value)) throw new ArithmeticError(`the result is not a finite number (${value})`);
  return value;
}
