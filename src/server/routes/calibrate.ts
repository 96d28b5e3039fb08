import { Either } from "effect";
import { Hono } from "hono";
import { fitPlatt } from "../../calibration/fit-platt.js";
import { applyPlatt } from "../../calibration/platt.js";
import { calibrationQuality } from "../../calibration/quality.js";
import { decodeBody } from "../decode-body.js";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { ApiProblem } from "../middleware/problem/index.js";
import { runEffect } from "../run-effect.js";
import { CalibrateRequest, CalibrationOutcomesRequest, CalibrationRefitRequest } from "../schemas.js";

const recalibrationOf = (deps: ServerDeps) => {
  if (deps.recalibration === undefined || deps.calibrationOutcomes === undefined)
    throw new ApiProblem(503, "not-configured", "this server does not recalibrate from reviewed outcomes");
  return { recalibration: deps.recalibration, outcomes: deps.calibrationOutcomes };
};

/**
 * `POST /v1/calibrate`: fits a Platt model to raw scores labelled supported or not, and reports the
 * calibration quality (ECE, Brier) before and after. Too few or one-sided samples are a 400 problem.
 * `POST /v1/calibration/outcomes`: a reviewer records outcomes the periodic refit learns from (the reviewer
 * is the authenticated key's user). `POST /v1/calibration/refit`: an admin refits now.
 * `GET /v1/calibration`: the models in use, the schedule and the last refit.
 */
export const calibrationRoutes = (deps: ServerDeps) =>
  new Hono<ServerEnv>()
    .get("/calibration", (context) => context.json(recalibrationOf(deps).recalibration.status()))
    .post("/calibration/outcomes", async (context) => {
      const { outcomes: store } = recalibrationOf(deps);
      const { outcomes } = await decodeBody(context, CalibrationOutcomesRequest);
      const recorded = await runEffect(store.record(context.get("userId"), outcomes));
      return context.json({ recorded }, 201);
    })
    .post("/calibration/refit", async (context) => {
      const { recalibration } = recalibrationOf(deps);
      const { reason } = await decodeBody(context, CalibrationRefitRequest);
      return context.json(await recalibration.refitNow(context.get("userId"), reason));
    })
    .post("/calibrate", async (context) => {
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
