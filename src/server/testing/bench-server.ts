/**
 * A `veracity serve` for the load benchmark, in its own process: an in-memory PGlite database, logs at warn
 * level, a rate limit high enough not to interfere. Prints `READY <url> <key>` once it listens; SIGTERM stops it.
 */
import { pino } from "pino";
import { startServer } from "../start.js";

const server = await startServer({
  port: 0,
  database: "memory://",
  // The default pool (one worker per core but one) unless BENCH_VERIFY_WORKERS says otherwise (0: in-thread).
  ...(process.env.BENCH_VERIFY_WORKERS === undefined
    ? {}
    : { verifyWorkers: Number(process.env.BENCH_VERIFY_WORKERS) }),
  logger: pino({ level: "warn" }),
  limits: { rateLimit: { requests: 1_000_000_000, windowMs: 60_000 } },
});
const key = await server.createApiKey("bench");
process.stdout.write(`READY ${server.url} ${key}\n`);
process.once("SIGTERM", () => {
  void server.close().then(() => process.exit(0));
});
