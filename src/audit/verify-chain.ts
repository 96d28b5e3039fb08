import { type AuditEntry, genesisHash } from "./entry.js";
import { hashAuditEntry } from "./hash.js";

export type AuditProblemKind =
  | "edited"
  | "missing"
  | "reordered"
  | "broken-link"
  | "truncated"
  | "anchor-mismatch";

export interface AuditProblem {
  readonly sequence: number;
  readonly kind: AuditProblemKind;
  readonly message: string;
}

/** The last entry the log recorded as its head, kept apart from the entries. */
export interface AuditHead {
  readonly sequence: number;
  readonly entryHash: string;
}

/**
 * An entry recorded outside the database (printed by a past `veracity audit verify`): the chain must still
 * hold it, with the same hash. The head row lives beside the log, so whoever can delete the last entries can
 * also rewind it; only an anchor kept elsewhere reveals a deleted tail or a wiped log.
 */
export interface AuditAnchor {
  readonly sequence: number;
  readonly entryHash: string;
}

/** At most this many problems are listed; the count keeps going. */
export const maxListedAuditProblems = 100;

/**
 * Walks the chain in stored order (by sequence) and checks each step; feed it entries page by page. Catches
 * an edited entry (its hash no longer matches its fields), a deleted one (a gap in the sequence and a link to
 * a hash that is not the previous entry's), a reordered one (sequence out of order or a broken link), and a
 * deleted tail (the head record names a later entry than the last one found).
 */
export class AuditChainChecker {
  private previous: { sequence: number; entryHash: string } = { sequence: 0, entryHash: genesisHash };
  private anchorSeen = false;
  private readonly listed: AuditProblem[] = [];
  problemCount = 0;
  checked = 0;

  constructor(private readonly anchor?: AuditAnchor) {}

  private report(problem: AuditProblem): void {
    this.problemCount++;
    if (this.listed.length < maxListedAuditProblems) this.listed.push(problem);
  }

  add(entry: AuditEntry): void {
    this.checked++;
    const { sequence } = entry;
    if (hashAuditEntry(entry) !== entry.entryHash)
      this.report({
        sequence,
        kind: "edited",
        message: `entry ${sequence}: its fields do not match its hash`,
      });
    if (sequence <= this.previous.sequence)
      this.report({
        sequence,
        kind: "reordered",
        message: `entry ${sequence} comes after entry ${this.previous.sequence}`,
      });
    else if (sequence !== this.previous.sequence + 1)
      this.report({
        sequence,
        kind: "missing",
        message: `entries ${this.previous.sequence + 1}..${sequence - 1} are missing`,
      });
    if (entry.previousHash !== this.previous.entryHash)
      this.report({
        sequence,
        kind: "broken-link",
        message: `entry ${sequence} does not link to the hash of the entry before it`,
      });
    if (this.anchor !== undefined && sequence === this.anchor.sequence) {
      this.anchorSeen = true;
      if (entry.entryHash !== this.anchor.entryHash)
        this.report({
          sequence,
          kind: "anchor-mismatch",
          message: `entry ${sequence} does not have the hash recorded in the anchor`,
        });
    }
    this.previous = { sequence, entryHash: entry.entryHash };
  }

  finish(head: AuditHead | undefined): AuditChainReport {
    if (
      head !== undefined &&
      (head.sequence !== this.previous.sequence || head.entryHash !== this.previous.entryHash)
    )
      this.report({
        sequence: head.sequence,
        kind: "truncated",
        message: `the log's head is entry ${head.sequence}, but the last entry found is ${this.previous.sequence}`,
      });
    if (this.anchor !== undefined && !this.anchorSeen)
      this.report({
        sequence: this.anchor.sequence,
        kind: "truncated",
        message: `entry ${this.anchor.sequence}, recorded in the anchor, is no longer in the log`,
      });
    return {
      intact: this.problemCount === 0,
      checked: this.checked,
      problemCount: this.problemCount,
      problems: this.listed,
      ...(this.checked === 0 ? {} : { last: { ...this.previous } }),
    };
  }
}

export interface AuditChainReport {
  readonly intact: boolean;
  readonly checked: number;
  readonly problemCount: number;
  readonly problems: readonly AuditProblem[];
  /** The last entry checked: record it somewhere else and pass it back as an anchor later. */
  readonly last?: AuditAnchor;
}

/** Checks a whole chain held in memory (see `AuditChainChecker` for what is detected). */
export const verifyAuditChain = (
  entries: readonly AuditEntry[],
  head?: AuditHead,
  anchor?: AuditAnchor,
): AuditChainReport => {
  const checker = new AuditChainChecker(anchor);
  for (const entry of entries) checker.add(entry);
  return checker.finish(head);
};
