import { Either } from "effect";
import { Hono } from "hono";
import { fitPlatt } from "../../calibration/fit-platt.js";
import { applyPlatt } from "../../calibration/platt.js";
import { calibrationQuality } from "../../calibration/quality.js";
import { decodeBody } from "../decode-body.js";
import type { ServerEnv } from "../env.js";
import { CalibrateRequest } from "../schemas.js";

/**
 * `POST /v1/calibrate`: fits a Platt model to raw scores labelled supported or not, and reports the
 * calibration quality (ECE, Brier) before and after. Too few or one-sided samples are a 400 problem.
 */
export const calibrationRoutes = () =>
  new Hono<ServerEnv>().post("/calibrate", async (context) => {
    const { samples } = await decodeBody(context, CalibrateRequest);
    const fit = fitPlatt(samples);
    if (Either.isLeft(fit)) throw fit.left;
    const model = fit.right.model;
    return context.json({
      model,
      converged: fit.right.converged,
      iterations: fit.right.iterations,
      before: calibrationQuality(samples),
      after: calibrationQuality(samples, (score) => applyPlatt(model, score)),
    });
  });
