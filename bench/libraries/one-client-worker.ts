/**
 * One client in a thread of its own: after `startAfterMs`, POSTs `bodies` to `url` one after the other until the
 * parent sends any message (or the bodies run out), then posts back every `TimedAnswer`. A bench measures a
 * client here when the thread that runs its load would otherwise delay this client's answers.
 */
import { parentPort, workerData } from "node:worker_threads";
import { type TimedAnswer, timedPost } from "./one-client.js";

const { url, headers, bodies, startAfterMs } = workerData as {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly bodies: readonly string[];
  readonly startAfterMs: number;
};
let running = true;
parentPort?.once("message", () => {
  running = false;
});
await new Promise((resolve) => setTimeout(resolve, startAfterMs));
const answers: TimedAnswer[] = [];
for (let index = 0; running && index < bodies.length; index += 1)
  answers.push(await timedPost(url, headers, bodies[index] as string));
parentPort?.postMessage(answers);
