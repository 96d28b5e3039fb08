import { readdir } from "node:fs/promises";
import { Effect } from "effect";
import { citationKey } from "../citation.js";
import { type CitationChecks, type CitationVerifier, checkError, notFound, verified } from "./verifier.js";

export interface AdrVerifierOptions {
  /** The folder of decision records: `ADR-003-title.md`, `0003-title.md`, `adr-3.md`... */
  readonly directory: string;
}

const recordNumber = /^(?:adr[-_ ]?)?0*(\d{1,4})(?=[-_ .])/i;

/** ADR references checked against the files of a decisions folder, read once per batch. */
export const makeAdrVerifier = (options: AdrVerifierOptions): CitationVerifier => ({
  name: "adr",
  kinds: ["adr"],
  verify: (citations) =>
    Effect.tryPromise(() => readdir(options.directory)).pipe(
      Effect.map((files) => {
        const numbers = new Map<string, string>();
        for (const file of files) {
          const match = recordNumber.exec(file);
          if (match?.[1] !== undefined) numbers.set(String(Number(match[1])), file);
        }
        return new Map(
          citations.map((citation) => {
            const file = numbers.get(citation.value);
            return [
              citationKey(citation.kind, citation.value),
              file ? verified("adr", `decision record ${file}`) : notFound("adr", "no such decision record"),
            ];
          }),
        ) as CitationChecks;
      }),
      Effect.catchAll((failure) =>
        Effect.succeed(
          new Map(
            citations.map((citation) => [
              citationKey(citation.kind, citation.value),
              checkError("adr", `decisions folder unreadable: ${String(failure.error)}`),
            ]),
          ) as CitationChecks,
        ),
      ),
    ),
});
