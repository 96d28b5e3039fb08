/** The parsed form of a calculator expression. */
export type ExpressionNode =
  | { readonly type: "number"; readonly literal: string; readonly position: number }
  | { readonly type: "negate"; readonly operand: ExpressionNode; readonly position: number }
  | { readonly type: "percent"; readonly operand: ExpressionNode; readonly position: number }
  | {
      readonly type: "binary";
      readonly operator: "+" | "-" | "*" | "/" | "%" | "^";
      readonly left: ExpressionNode;
      readonly right: ExpressionNode;
      readonly position: number;
    }
  | {
      readonly type: "call";
      readonly name: string;
      readonly args: readonly ExpressionNode[];
      readonly position: number;
    };
