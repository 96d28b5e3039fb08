import { Effect, Either } from "effect";
import { InputError } from "../model/errors.js";
import type { StorageError } from "../storage/errors.js";
import { runMigrations } from "../storage/migrations.js";
import type { SqlClientService } from "../storage/sql-client.js";
import type { CalibrationModels } from "./calibrator.js";
import { parseCalibrationFile } from "./file.js";

const migrations = [
  {
    version: 1,
    sql: `CREATE TABLE veracity_calibrations (
      name text NOT NULL,
      version integer NOT NULL,
      file_json text NOT NULL,
      saved_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (name, version)
    )`,
  },
];

const namePattern = /^[a-zA-Z0-9_.-]{1,64}$/;
/** Versions kept per name: saving one more removes the oldest. */
const maxCalibrationVersions = 50;
/** Distinct names the store holds: a new name beyond this is refused. */
const maxCalibrationNames = 1000;
/** A calibration file is a few hundred bytes per layer; anything much larger is not one. */
const maxFileBytes = 1024 * 1024;

export interface CalibrationStore {
  /**
   * Saves a calibration file (as `calibrationFileJson` writes it) as the next version of `name`, keeping the
   * newest versions of it (`maxCalibrationVersions` by default); a new name beyond the store's limit on names
   * (`maxCalibrationNames` by default) is an InputError.
   */
  readonly save: (name: string, fileJson: string) => Effect.Effect<number, StorageError | InputError>;
  /** The newest version of `name`; fails with an InputError when there is none or it does not decode. */
  readonly load: (name: string) => Effect.Effect<CalibrationModels, StorageError | InputError>;
}

const invalid = (message: string) => new InputError({ message, code: "calibration-store" });

const checkName = (name: string) =>
  namePattern.test(name)
    ? Effect.void
    : Effect.fail(invalid(`invalid calibration name: ${JSON.stringify(name)}`));

/** Calibration files kept in the SQL store (PGlite or PostgreSQL), versioned by name. */
export const makeCalibrationStore = (
  client: SqlClientService,
  limits: { readonly maxVersions?: number; readonly maxNames?: number } = {},
): Effect.Effect<CalibrationStore, StorageError> =>
  Effect.gen(function* () {
    const maxVersions = limits.maxVersions ?? maxCalibrationVersions;
    const maxNames = limits.maxNames ?? maxCalibrationNames;
    yield* runMigrations(client, "calibration", migrations);
    return {
      save: (name, fileJson) =>
        Effect.gen(function* () {
          yield* checkName(name);
          if (Buffer.byteLength(fileJson, "utf8") > maxFileBytes)
            return yield* Effect.fail(invalid(`calibration file larger than ${maxFileBytes} bytes`));
          const parsed = parseCalibrationFile(fileJson);
          if (Either.isLeft(parsed)) return yield* Effect.fail(parsed.left);
          return yield* client.transaction((tx) =>
            Effect.gen(function* () {
              if (client.dialect === "postgres")
                yield* tx.query("LOCK TABLE veracity_calibrations IN SHARE ROW EXCLUSIVE MODE");
              const [row] = yield* tx.query<{ next: number }>(
                "SELECT COALESCE(MAX(version), 0) + 1 AS next FROM veracity_calibrations WHERE name = $1",
                [name],
              );
              const version = Number(row?.next ?? 1);
              if (version === 1) {
                const [names] = yield* tx.query<{ count: number | string }>(
                  "SELECT COUNT(DISTINCT name) AS count FROM veracity_calibrations",
                );
                if (Number(names?.count ?? 0) >= maxNames)
                  return yield* Effect.fail(invalid(`the store already holds ${maxNames} calibration names`));
              }
              yield* tx.query(
                "INSERT INTO veracity_calibrations (name, version, file_json) VALUES ($1, $2, $3)",
                [name, version, fileJson],
              );
              yield* tx.query("DELETE FROM veracity_calibrations WHERE name = $1 AND version <= $2", [
                name,
                version - maxVersions,
              ]);
              return version;
            }),
          );
        }),
      load: (name) =>
        Effect.gen(function* () {
          yield* checkName(name);
          const [row] = yield* client.query<{ file_json: string }>(
            "SELECT file_json FROM veracity_calibrations WHERE name = $1 ORDER BY version DESC LIMIT 1",
            [name],
          );
          if (row === undefined) return yield* Effect.fail(invalid(`no calibration named ${name}`));
          const parsed = parseCalibrationFile(row.file_json);
          if (Either.isLeft(parsed)) return yield* Effect.fail(parsed.left);
          return parsed.right;
        }),
    };
  });
