import { Schema } from "effect";
import fc from "fast-check";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { jsonDepth } from "../text/json-text.js";
import { decodeBody } from "./decode-body.js";
import { problemErrorHandler } from "./middleware/problem/index.js";

/** The definition, a character at a time: inside a string a backslash skips the next character. */
const depthByCharacters = (text: string, stopAbove: number): number => {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === 92) at++;
      else if (code === 34) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 123 || code === 91) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (code === 125 || code === 93) depth--;
  }
  return deepest;
};

describe("jsonDepth", () => {
  it("counts what a reading one character at a time counts, escapes and unterminated strings included", () => {
    const piece = fc.constantFrom("{", "}", "[", "]", '"', "\\", '\\"', "\\\\", "a", ",", ":", " ", "é");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.integer({ min: 0, max: 6 }), (pieces, stopAbove) => {
        const text = pieces.join("");
        expect(jsonDepth(text, stopAbove)).toBe(depthByCharacters(text, stopAbove));
      }),
      { numRuns: 5_000 },
    );
  });

  it("skips brackets inside strings, escaped quotes and all", () => {
    expect(jsonDepth(JSON.stringify({ a: ['x"[[[{{', "\\", { b: "]]]" }] }), 64)).toBe(3);
    expect(jsonDepth(`{"a": "unterminated [[[`, 64)).toBe(1);
  });
});

describe("decodeBody's unreadable-text check", () => {
  const app = new Hono();
  app.onError(problemErrorHandler);
  app.post("/decode", async (context) =>
    context.json(await decodeBody(context, Schema.Record({ key: Schema.String, value: Schema.String }))),
  );

  it("refuses every body whose parsed strings or keys hold a NUL or a lone surrogate, whatever the raw bytes", async () => {
    // Raw bytes in a string and a key, escapes among them: whatever parses is refused exactly when a string
    // or key holds a NUL or a lone surrogate after decoding and parsing.
    const piece = fc.oneof(
      fc.constantFrom(
        "\\u0000",
        "\\ud800",
        "\\udc00",
        "\\ud83d\\ude00",
        "\\u00e9",
        "\\\\u0000",
        "\\n",
        "a",
        "é",
        '\\"',
      ),
      fc.uint8Array({ minLength: 1, maxLength: 3 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 6 }),
        fc.array(piece, { maxLength: 3 }),
        async (value, key) => {
          const bytes = Buffer.from(`{"${key.join("")}": "${value.join("")}"}`, "latin1");
          let parsed: Record<string, string> | undefined;
          try {
            parsed = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, string>;
          } catch {
            parsed = undefined;
          }
          const response = await app.request("/decode", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: bytes,
          });
          if (parsed === undefined) {
            expect(response.status).toBe(400);
            return;
          }
          const unreadable = Object.entries(parsed).some(
            ([k, v]) =>
              !k.isWellFormed() || !v.isWellFormed() || k.includes("\u0000") || v.includes("\u0000"),
          );
          expect(response.status).toBe(unreadable ? 400 : 200);
          if (unreadable) expect(((await response.json()) as { code: string }).code).toBe("invalid-text");
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
