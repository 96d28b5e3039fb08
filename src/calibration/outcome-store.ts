import { Effect } from "effect";
import { InputError } from "../model/errors.js";
import type { ModelLayerName } from "../model/layer-name.js";
import type { StorageError } from "../storage/errors.js";
import { runMigrations } from "../storage/migrations.js";
import type { SqlClientService } from "../storage/sql-client.js";
import type { LayerScorePair } from "./fit-layers.js";

const migrations = [
  {
    version: 1,
    sql: `CREATE TABLE veracity_calibration_outcomes (
      id bigserial PRIMARY KEY,
      layer text NOT NULL,
      raw_score double precision NOT NULL,
      supported boolean NOT NULL,
      reviewer text NOT NULL,
      verification_id text,
      recorded_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX veracity_calibration_outcomes_layer ON veracity_calibration_outcomes (layer, id)`,
  },
];

/** One reviewed outcome: a layer's raw score on a verified text, and whether a person found the text supported. */
export interface CalibrationOutcome {
  readonly layer: ModelLayerName;
  /** The layer's raw score in [0, 1] (`details.rawScore` of its result). */
  readonly rawScore: number;
  readonly supported: boolean;
  /** Which verification it came from, when the reviewer says (free text, at most 128 characters). */
  readonly verificationId?: string | undefined;
}

export interface CalibrationOutcomeStore {
  /**
   * Records outcomes as the given reviewer's, at most `maxPerCall` at once; each layer keeps its newest
   * `maxPerLayer` outcomes (older ones are removed in the same transaction), so the table cannot grow without
   * bound. Returns how many were recorded.
   */
  readonly record: (
    reviewer: string,
    outcomes: readonly CalibrationOutcome[],
  ) => Effect.Effect<number, StorageError | InputError>;
  /** Every kept outcome as labelled pairs (the pair's id is the outcome's), oldest first. */
  readonly pairs: Effect.Effect<readonly LayerScorePair[], StorageError>;
  /** The id of the newest outcome, 0 when there is none: a refit can tell whether anything came in since. */
  readonly newestId: Effect.Effect<number, StorageError>;
}

export interface CalibrationOutcomeLimits {
  /** Outcomes kept per layer (default 20,000). */
  readonly maxPerLayer?: number;
  /** Outcomes one call may record (default 1,000). */
  readonly maxPerCall?: number;
}

const invalid = (message: string) => new InputError({ message, code: "calibration-outcome" });

/** Reviewed outcomes in the SQL store (PGlite or PostgreSQL), the data periodic recalibration fits on. */
export const makeCalibrationOutcomeStore = (
  client: SqlClientService,
  limits: CalibrationOutcomeLimits = {},
): Effect.Effect<CalibrationOutcomeStore, StorageError> =>
  Effect.gen(function* () {
    const maxPerLayer = limits.maxPerLayer ?? 20_000;
    const maxPerCall = limits.maxPerCall ?? 1_000;
    yield* runMigrations(client, "calibration-outcomes", migrations);
    return {
      record: (reviewer, outcomes) =>
        Effect.gen(function* () {
          if (outcomes.length === 0) return 0;
          if (outcomes.length > maxPerCall)
            return yield* Effect.fail(
              invalid(`at most ${maxPerCall} outcomes per call (got ${outcomes.length})`),
            );
          for (const outcome of outcomes) {
            if (!Number.isFinite(outcome.rawScore) || outcome.rawScore < 0 || outcome.rawScore > 1)
              return yield* Effect.fail(invalid(`a raw score must be in [0, 1] (got ${outcome.rawScore})`));
            if ((outcome.verificationId?.length ?? 0) > 128)
              return yield* Effect.fail(invalid("a verification id is at most 128 characters"));
          }
          return yield* client.transaction((tx) =>
            Effect.gen(function* () {
              // One statement for the whole batch: parameters in groups of five.
              const values = outcomes
                .map((_, index) => {
                  const at = index * 5;
                  return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5})`;
                })
                .join(", ");
              yield* tx.query(
                `INSERT INTO veracity_calibration_outcomes (layer, raw_score, supported, reviewer, verification_id) VALUES ${values}`,
                outcomes.flatMap((outcome) => [
                  outcome.layer,
                  outcome.rawScore,
                  outcome.supported,
                  reviewer,
                  outcome.verificationId ?? null,
                ]),
              );
              for (const layer of new Set(outcomes.map((outcome) => outcome.layer)))
                yield* tx.query(
                  `DELETE FROM veracity_calibration_outcomes WHERE layer = $1 AND id <= (
                     SELECT id FROM veracity_calibration_outcomes WHERE layer = $1
                     ORDER BY id DESC OFFSET $2 LIMIT 1)`,
                  [layer, maxPerLayer],
                );
              return outcomes.length;
            }),
          );
        }),
      pairs: Effect.map(
        client.query<{ id: string | number; layer: string; raw_score: number | string; supported: boolean }>(
          "SELECT id, layer, raw_score, supported FROM veracity_calibration_outcomes ORDER BY id",
        ),
        (rows) =>
          rows.map(
            (row): LayerScorePair => ({
              id: `outcome-${row.id}`,
              layer: row.layer,
              score: Number(row.raw_score),
              label: row.supported ? "supported" : "hallucinated",
            }),
          ),
      ),
      newestId: Effect.map(
        client.query<{ newest: string | number | null }>(
          "SELECT MAX(id) AS newest FROM veracity_calibration_outcomes",
        ),
        ([row]) => Number(row?.newest ?? 0),
      ),
    };
  });
