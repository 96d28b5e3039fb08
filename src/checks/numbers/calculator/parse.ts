import { Either } from "effect";
import { CalculationError, calculationError } from "./errors.js";
import type { CalculatorLimits } from "./limits.js";
import type { ExpressionNode } from "./syntax-tree.js";
import { type Token, tokenize } from "./tokenize.js";

/**
 * A recursive-descent parser with a depth bound. Precedence, lowest first: `+ -`, `* / %` (modulo),
 * unary sign, `^` (right-associative, so `-2^2` is -4 and `2^3^2` is 512), postfix `%` (percent: `5%` is
 * 0.05; a `%` followed by an operand is modulo).
 */
class Parser {
  private index = 0;
  constructor(
    private readonly tokens: readonly Token[],
    private readonly limits: CalculatorLimits,
  ) {}

  parse(): ExpressionNode {
    const tree = this.sum(0);
    const extra = this.tokens[this.index];
    if (extra) throw calculationError("syntax", `unexpected "${extra.text}"`, extra.position);
    return tree;
  }

  private peek(): Token | undefined {
    return this.tokens[this.index];
  }

  private isOperator(token: Token | undefined, ...operators: string[]): boolean {
    return token?.type === "operator" && operators.includes(token.text);
  }

  private checkDepth(depth: number, position: number): void {
    if (depth > this.limits.maxDepth) {
      throw calculationError(
        "too-deep",
        `expression nested deeper than ${this.limits.maxDepth} levels`,
        position,
      );
    }
  }

  private sum(depth: number): ExpressionNode {
    let left = this.product(depth);
    for (let token = this.peek(); this.isOperator(token, "+", "-"); token = this.peek()) {
      this.index += 1;
      const operator = token?.text as "+" | "-";
      left = { type: "binary", operator, left, right: this.product(depth), position: token?.position ?? 0 };
    }
    return left;
  }

  private product(depth: number): ExpressionNode {
    let left = this.unary(depth);
    for (let token = this.peek(); this.isOperator(token, "*", "/", "%"); token = this.peek()) {
      this.index += 1;
      const operator = token?.text as "*" | "/" | "%";
      left = { type: "binary", operator, left, right: this.unary(depth), position: token?.position ?? 0 };
    }
    return left;
  }

  private unary(depth: number): ExpressionNode {
    const token = this.peek();
    if (this.isOperator(token, "+", "-")) {
      this.checkDepth(depth + 1, token?.position ?? 0);
      this.index += 1;
      const operand = this.unary(depth + 1);
      return token?.text === "-" ? { type: "negate", operand, position: token.position } : operand;
    }
    return this.power(depth);
  }

  private power(depth: number): ExpressionNode {
    const base = this.postfix(depth);
    const token = this.peek();
    if (!this.isOperator(token, "^")) return base;
    this.checkDepth(depth + 1, token?.position ?? 0);
    this.index += 1;
    return {
      type: "binary",
      operator: "^",
      left: base,
      right: this.unary(depth + 1),
      position: token?.position ?? 0,
    };
  }

  private postfix(depth: number): ExpressionNode {
    let node = this.primary(depth);
    for (let token = this.peek(); this.isOperator(token, "%"); token = this.peek()) {
      const next = this.tokens[this.index + 1];
      const startsOperand = next?.type === "number" || next?.type === "name" || next?.type === "open";
      if (startsOperand) break;
      this.index += 1;
      node = { type: "percent", operand: node, position: token?.position ?? 0 };
    }
    return node;
  }

  private primary(depth: number): ExpressionNode {
    const token = this.peek();
    if (!token) throw calculationError("syntax", "expression ends too early");
    this.index += 1;
    if (token.type === "number") return { type: "number", literal: token.text, position: token.position };
    if (token.type === "open") {
      this.checkDepth(depth + 1, token.position);
      const inner = this.sum(depth + 1);
      this.expect("close", ")");
      return inner;
    }
    if (token.type === "name") {
      this.checkDepth(depth + 1, token.position);
      this.expect("open", `( after ${token.text}`);
      const args: ExpressionNode[] = [];
      if (this.peek()?.type !== "close") {
        args.push(this.sum(depth + 1));
        while (this.peek()?.type === "comma") {
          this.index += 1;
          if (args.length >= this.limits.maxArguments) {
            throw calculationError(
              "too-long",
              `more than ${this.limits.maxArguments} arguments`,
              token.position,
            );
          }
          args.push(this.sum(depth + 1));
        }
      }
      this.expect("close", ")");
      return { type: "call", name: token.text, args, position: token.position };
    }
    throw calculationError("syntax", `unexpected "${token.text}"`, token.position);
  }

  private expect(type: Token["type"], what: string): void {
    const token = this.peek();
    if (token?.type !== type) {
      throw calculationError("syntax", `expected ${what}`, token?.position);
    }
    this.index += 1;
  }
}

/** Parses an expression into a syntax tree, or explains why it cannot. */
export const parseExpression = (
  expression: string,
  limits: CalculatorLimits,
): Either.Either<ExpressionNode, CalculationError> => {
  if (expression.length > limits.maxLength) {
    return Either.left(calculationError("too-long", `expression longer than ${limits.maxLength} characters`));
  }
  if (expression.trim().length === 0) return Either.left(calculationError("syntax", "empty expression"));
  return Either.flatMap(tokenize(expression), (tokens) => {
    try {
      return Either.right(new Parser(tokens, limits).parse());
    } catch (error) {
      if (error instanceof CalculationError) return Either.left(error);
      return Either.left(calculationError("syntax", "expression could not be parsed"));
    }
  });
};
