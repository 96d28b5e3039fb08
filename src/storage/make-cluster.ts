/**
 * A program of its own, started by `makeClusterInChildProcess`: creates a PostgreSQL cluster (PGlite's initdb)
 * in the directory its one argument names, closes it and exits 0. Any failure exits with another code.
 */
import { PGlite } from "@electric-sql/pglite";

const directory = process.argv[2];
if (directory === undefined || directory === "") {
  process.stderr.write("usage: make-cluster <directory>\n");
  process.exit(2);
}
const database = await PGlite.create(directory);
await database.close();
