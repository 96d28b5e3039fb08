import { type EvidenceSource, evidenceCharacters } from "../../../model/layer.js";
import { defaultSecondSight, makeSecondSight, type SecondSightOptions } from "../../../text/second-sight.js";
import {
  type PreparedSources,
  type PrepareOptions,
  prepareSources,
  type SourcesReader,
} from "./prepared-sources.js";

const maxCachedChars = 1_000_000;

interface Entry {
  readonly evidence: readonly EvidenceSource[];
  readonly options: string;
  readonly prepared: PreparedSources;
}

const optionsKey = (options: PrepareOptions) =>
  `${options.decimalSeparator ?? "."}\u0000${options.maxNumbers ?? 0}\u0000${options.maxRun ?? ""}`;

/** The same evidence: index, origin and text of every source, in order. Lengths are compared before texts. */
const sameEvidence = (a: readonly EvidenceSource[], b: readonly EvidenceSource[]): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as EvidenceSource;
    const y = b[i] as EvidenceSource;
    if (x.text.length !== y.text.length || x.index !== y.index || x.origin !== y.origin) return false;
  }
  for (let i = 0; i < a.length; i++)
    if ((a[i] as EvidenceSource).text !== (b[i] as EvidenceSource).text) return false;
  return true;
};

/**
 * A `prepareSources` that remembers the last `capacity` evidence sets (up to 1 MB of text each) it has read
 * twice, or once when large (see `makeSecondSight`): many answers are usually checked against the same sources. Prepared sources are never mutated, so sharing them
 * is safe. Each layer owns its own cache; there is no module-level state. Entries are found by comparing the
 * evidence itself (lengths first), not by a key built from the whole text on every call.
 */
export const makeSourcesCache = (
  capacity = 16,
  admission: SecondSightOptions = defaultSecondSight,
): SourcesReader => {
  const admit = makeSecondSight(admission);
  // Least recently used first.
  const recent: Entry[] = [];
  return (evidence, options) => {
    const size = evidenceCharacters(evidence);
    if (size > maxCachedChars || capacity <= 0) return prepareSources(evidence, options);
    const key = optionsKey(options);
    const at = recent.findIndex((entry) => entry.options === key && sameEvidence(entry.evidence, evidence));
    const hit = recent[at];
    if (hit) {
      recent.splice(at, 1);
      recent.push(hit);
      return hit.prepared;
    }
    const prepared = prepareSources(evidence, options);
    // Kept from the second time these sources are read, or at once when they are large (see `makeSecondSight`).
    if (!admit(evidence.map((source) => source.text))) return prepared;
    // A copy of the list and of each source: the caller's objects are not ours to keep as they are.
    recent.push({
      evidence: evidence.map((source) => ({ ...source })),
      options: key,
      prepared,
    });
    if (recent.length > capacity) recent.shift();
    return prepared;
  };
};
