import { Hono } from "hono";
import { calculate } from "../../checks/numbers/calculator/calculate.js";
import { validateNumbers } from "../../checks/numbers/validate/validate-numbers.js";
import { decodeBody } from "../decode-body.js";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { runEffect } from "../run-effect.js";
import { CalculateRequest, NumbersValidateRequest } from "../schemas.js";

/** `POST /v1/calculate` (the exact calculator) and `POST /v1/numbers/validate` (trace every number to the sources). */
export const numberRoutes = (deps: Pick<ServerDeps, "validateNumbersJson">) =>
  new Hono<ServerEnv>()
    .post("/calculate", async (context) => {
      const { expression } = await decodeBody(context, CalculateRequest);
      return context.json(await runEffect(calculate(expression)));
    })
    .post("/numbers/validate", async (context) => {
      const request = await decodeBody(context, NumbersValidateRequest);
      const input = {
        text: request.text,
        evidence: request.sources.map((text, index) => ({ index, origin: "source" as const, text })),
        ...(request.question === undefined ? {} : { question: request.question }),
      };
      const json = deps.validateNumbersJson
        ? await deps.validateNumbersJson(input)
        : JSON.stringify(validateNumbers(input));
      return context.body(json, 200, { "content-type": "application/json" });
    });
