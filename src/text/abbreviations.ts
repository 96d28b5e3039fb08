/**
 * Words that end with a period without ending a sentence. Compared lower-cased, without the final period
 * ("e.g" for "e.g.", "u.s" for "U.S.").
 */
export const abbreviations: ReadonlySet<string> = new Set(
  (
    "mr mrs ms dr prof sr jr st mt ft rev hon gen col lt sgt capt cmdr gov sen rep pres supt " +
    "vs etc e.g i.e cf viz al approx ca est dept univ assn bros inc ltd co corp llc plc " +
    "jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur thurs fri sat sun " +
    "fig figs eq eqs vol vols ch chap sec no nos p pp para art ed eds op cit ibid " +
    "u.s u.k u.n e.u u.s.a a.m p.m ph.d m.d b.a m.a b.sc m.sc d.c n.y l.a " +
    "mins hr hrs sq oz lb lbs km cm mm kg mg approx. est. dist tel ext"
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
