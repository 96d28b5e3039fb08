import { Either } from "effect";
import { type CalculationError, calculationError } from "./errors.js";

export type Token =
  | { readonly type: "number"; readonly text: string; readonly position: number }
  | { readonly type: "name"; readonly text: string; readonly position: number }
  | { readonly type: "operator"; readonly text: "+" | "-" | "*" | "/" | "%" | "^"; readonly position: number }
  | { readonly type: "open" | "close" | "comma"; readonly text: string; readonly position: number };

const numberPattern = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,4})?/;
const namePattern = /^[A-Za-z_][A-Za-z0-9_]*/;
/** Typographic signs an LLM writes, read as their ASCII operators. */
const operatorAliases: Record<string, "+" | "-" | "*" | "/" | "%" | "^"> = {
  "+": "+",
  "-": "-",
  "−": "-",
  "–": "-",
  "*": "*",
  "×": "*",
  "·": "*",
  "/": "/",
  "÷": "/",
  "%": "%",
  "^": "^",
};

/** Splits an expression into tokens; any other character is a syntax error with its position. */
export const tokenize = (expression: string): Either.Either<Token[], CalculationError> => {
  const tokens: Token[] = [];
  let position = 0;
  while (position < expression.length) {
    const char = expression[position] ?? "";
    if (/\s/.test(char)) {
      position += 1;
      continue;
    }
    const rest = expression.slice(position, position + 64);
    const number = numberPattern.exec(rest);
    if (number) {
      tokens.push({ type: "number", text: number[0], position });
      position += number[0].length;
      continue;
    }
    const name = namePattern.exec(rest);
    if (name) {
      tokens.push({ type: "name", text: name[0], position });
      position += name[0].length;
      continue;
    }
    const operator = Object.hasOwn(operatorAliases, char) ? operatorAliases[char] : undefined;
    if (operator) tokens.push({ type: "operator", text: operator, position });
    else if (char === "(") tokens.push({ type: "open", text: char, position });
    else if (char === ")") tokens.push({ type: "close", text: char, position });
    else if (char === ",") tokens.push({ type: "comma", text: char, position });
    else return Either.left(calculationError("syntax", `unexpected character "${char}"`, position));
    position += 1;
  }
  return Either.right(tokens);
};
