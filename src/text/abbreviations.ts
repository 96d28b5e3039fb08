/**
 * Words that end with a period without ending a sentence. Words that are also ordinary words ("sat",
 * "sun", "no", "art") or units that often end a sentence ("kg", "sec") are left out on purpose; "No." and
 * "p." before a number are handled where the number is seen. Compared lower-cased, without the final period
 * ("e.g" for "e.g.", "u.s" for "U.S.").
 */
export const abbreviations: ReadonlySet<string> = new Set(
  (
    "mr mrs ms dr prof sr jr st mt ft rev hon gen col lt sgt capt cmdr gov sen rep pres supt " +
    "vs etc e.g i.e cf viz al approx ca dept univ assn bros inc ltd co corp llc plc " +
    "jan feb apr jun jul aug sep sept oct nov dec " +
    "fig figs eq eqs vol vols chap para ibid " +
    "u.s u.k u.n e.u u.s.a a.m p.m ph.d m.d b.a m.a b.sc m.sc d.c n.y l.a"
  ).split(" "),
);

/** Abbreviations that often end a sentence too ("... in the U.S. The next ..."). */
export const sentenceFinalAbbreviations: ReadonlySet<string> = new Set(
  "etc u.s u.k u.n e.u u.s.a a.m p.m inc ltd co corp llc plc bros d.c".split(" "),
);

/** Capitalized words that usually open a sentence; after a sentence-final abbreviation they mean a break. */
export const sentenceStarters: ReadonlySet<string> = new Set(
  (
    "the a an he she it they we i you this that these those there in on at but and however also then " +
    "its their his her our my as after before when while if for so yet although though since because " +
    "meanwhile moreover furthermore in addition overall today yesterday"
  ).split(" "),
);
