import { JSONSchema, Schema } from "effect";
import { describe, expect, it } from "vitest";
import { cleanJsonSchema } from "./clean-json-schema.js";

const cleaned = (schema: Schema.Schema.AnyNoContext) => cleanJsonSchema(JSONSchema.make(schema));

describe("cleanJsonSchema", () => {
  it("drops Effect's refinement titles and built-in ids but keeps descriptions", () => {
    const schema = cleaned(
      Schema.Struct({
        text: Schema.String.pipe(Schema.maxLength(10)).annotations({ description: "the text" }),
        metadata: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
      }),
    );
    const text = JSON.stringify(schema);
    expect(text).not.toContain('"title"');
    expect(text).not.toContain("/schemas/");
    expect(schema).not.toHaveProperty("$schema");
    expect(schema.properties).toMatchObject({
      text: { type: "string", maxLength: 10, description: "the text" },
    });
  });

  it("keeps a title a person wrote, and a property that happens to be named title", () => {
    const schema = cleaned(Schema.Struct({ title: Schema.String }).annotations({ title: "Problem details" }));
    expect(schema.title).toBe("Problem details");
    expect(schema.properties).toHaveProperty("title");
  });

  it("inlines a local definition that had siblings beside its $ref, keeping the bounds", () => {
    const schema = cleaned(Schema.Struct({ limit: Schema.Int.pipe(Schema.between(1, 100)) }));
    expect(JSON.stringify(schema)).not.toContain("$ref");
    expect(schema).not.toHaveProperty("$defs");
    expect(schema.properties).toMatchObject({ limit: { type: "integer", minimum: 1, maximum: 100 } });
  });

  it("wraps a reference it cannot inline in allOf", () => {
    const schema = cleanJsonSchema({
      type: "object",
      properties: { result: { $ref: "#/components/schemas/Result", description: "the result" } },
    });
    expect(schema.properties).toEqual({
      result: { allOf: [{ $ref: "#/components/schemas/Result" }], description: "the result" },
    });
  });

  it("keeps a definition that is referenced without siblings, and what it references", () => {
    const schema = cleanJsonSchema({
      $defs: { A: { $ref: "#/$defs/B" }, B: { type: "string" }, Unused: { type: "number" } },
      type: "object",
      properties: { a: { $ref: "#/$defs/A" } },
    });
    expect(Object.keys(schema.$defs as object).sort()).toEqual(["A", "B"]);
  });
});
