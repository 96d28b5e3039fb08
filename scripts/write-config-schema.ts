/**
 * Writes the configuration file's JSON Schema, generated from its Effect Schema, to
 * schemas/veracity.config.schema.json (test/config-schema.test.ts fails while the two differ).
 *
 *   npm run schema:update
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { configJsonSchema } from "../src/assembly/config-file.js";

export const configSchemaPath = resolve(import.meta.dirname, "../schemas/veracity.config.schema.json");
export const configSchemaText = (): string => `${JSON.stringify(configJsonSchema(), null, 2)}\n`;

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  writeFileSync(configSchemaPath, configSchemaText());
  console.log(`wrote ${configSchemaPath}`);
}
