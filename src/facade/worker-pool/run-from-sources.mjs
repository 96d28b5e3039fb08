// Runs a worker module written in TypeScript when the pool itself runs from sources (tests, tsx): tsx's
// hooks are registered in this thread first. The build compiles the workers and never loads this file.
import { workerData } from "node:worker_threads";

const { register } = await import("tsx/esm/api");
register();
await import(workerData.sourceEntry);
