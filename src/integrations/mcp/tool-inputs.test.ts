import { Schema } from "effect";
import { describe, expect, it } from "vitest";
import { MemoryCandidate } from "../../memory/index.js";
import { VerificationRequest } from "../../model/request.js";
import { IngestMemoryInput, VerifyInput } from "./tool-inputs.js";
import { inputJsonSchema, mcpTools } from "./tools.js";

describe("the MCP tool inputs", () => {
  it("verify takes only fields of VerificationRequest, so its arguments are a valid request", () => {
    const requestFields = Object.keys(VerificationRequest.fields);
    for (const field of Object.keys(VerifyInput.fields)) expect(requestFields).toContain(field);
  });

  it("ingest_memory takes exactly the fields of the gate's MemoryCandidate", () => {
    expect(Object.keys(IngestMemoryInput.fields).sort()).toEqual(Object.keys(MemoryCandidate.fields).sort());
  });

  it("a valid ingest_memory argument decodes as a MemoryCandidate", () => {
    const argument = {
      content: "I prefer metric units.",
      memoryType: "preference",
      source: "user",
      userId: "u1",
      validUntil: "2030-01-01T00:00:00Z",
    };
    expect(Schema.decodeUnknownSync(IngestMemoryInput)(argument)).toEqual(argument);
    expect(Schema.decodeUnknownSync(MemoryCandidate)(argument).validUntil).toEqual(
      new Date("2030-01-01T00:00:00Z"),
    );
  });

  it.each(mcpTools.map((tool) => [tool.name, tool] as const))(
    "%s has an object JSON schema with no $schema key and no extra properties",
    (_name, tool) => {
      const schema = inputJsonSchema(tool);
      expect(schema).toMatchObject({ type: "object", additionalProperties: false });
      expect(schema).not.toHaveProperty("$schema");
    },
  );
});
