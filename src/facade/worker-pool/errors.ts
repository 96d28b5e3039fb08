import { Data } from "effect";

/** Every worker has its most calls waiting: the caller should answer "try again shortly", never a pass. */
export class VerifierBusyError extends Data.TaggedError("VerifierBusyError")<{
  readonly message: string;
  readonly pending: number;
}> {}
