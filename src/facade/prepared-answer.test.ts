import { afterAll, describe, expect, it } from "vitest";
import { auditEntryForVerification, verificationOutputHash } from "../audit/entries-for.js";
import { createVerifier } from "./create-verifier.js";
import { prepareAnswer, verifyPrepared } from "./prepared-answer.js";

const utf8 = new TextDecoder();
const verifier = createVerifier();
afterAll(() => verifier.close());

const request = {
  text: "The plant opened in 1998 and employs 1,200 people. It makes 40,000 cars a year.",
  sources: ["The plant opened in 1998. It employs 1,200 people and makes 30,000 cars a year."],
};

describe("prepareAnswer", () => {
  it("sends the result without each layer's claims unless asked, and the hash of the whole verdict", async () => {
    const result = await verifier.verify(request);
    expect(result.layersRun.some((layer) => (layer.claims?.length ?? 0) > 0)).toBe(true);
    const answer = prepareAnswer(result, { layerClaims: false });
    const sent = JSON.parse(utf8.decode(answer.body));
    expect(sent.claims).toEqual(JSON.parse(JSON.stringify(result.claims)));
    expect(sent.layersRun.every((layer: object) => !("claims" in layer))).toBe(true);
    expect(sent.passed).toBe(false);
    expect(JSON.parse(utf8.decode(prepareAnswer(result, { layerClaims: true }).body))).toEqual(
      JSON.parse(JSON.stringify(result)),
    );
    expect(answer.outputHash).toBe(verificationOutputHash(result));
    expect("claims" in answer.summary).toBe(false);
    expect(answer.summary.layersRun.map((layer) => layer.layer)).toEqual(
      result.layersRun.map((layer) => layer.layer),
    );
  });

  it("sends the JSON as UTF-8, so text outside ASCII comes back as it went in", async () => {
    const text = "Zürich's plant, opened in 1998 (東京 office), employs 1,200 people 🚗.";
    const result = await verifier.verify({ text, sources: [text] });
    const answer = prepareAnswer(result, { layerClaims: false });
    expect(answer.body.byteLength).toBe(
      Buffer.byteLength(JSON.stringify({ ...result, layersRun: answer.summary.layersRun })),
    );
    expect(
      JSON.parse(utf8.decode(answer.body))
        .claims.map((claim: { text: string }) => claim.text)
        .join(" "),
    ).toContain("Zürich");
    expect(utf8.decode(answer.body)).toContain("🚗");
  });

  it("gives the audit trail the same entry as the whole result would", async () => {
    const result = await verifier.verify(request);
    const answer = prepareAnswer(result, { layerClaims: false });
    const metadata = { route: "/v1/check" };
    expect(
      auditEntryForVerification({
        actor: "alice",
        text: request.text,
        result: answer.summary,
        outputHash: answer.outputHash,
        metadata,
      }),
    ).toEqual(auditEntryForVerification({ actor: "alice", text: request.text, result, metadata }));
  });

  it("is what verifyPrepared returns for a verifier without a prepared path of its own", async () => {
    const prepared = await verifyPrepared(verifier, request, { layerClaims: false });
    const direct = prepareAnswer(await verifier.verify(request), { layerClaims: false });
    expect(prepared?.outputHash).toBe(direct.outputHash);
  });
});
