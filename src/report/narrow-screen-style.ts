/**
 * CSS every HTML page and report of Veracity appends to its own, so it reads on a 375 px phone without
 * sideways scrolling: long words (ids, URLs, hashes) wrap, charts shrink to the width, and on a narrow screen
 * a wide table scrolls inside its own box instead of widening the page.
 */
export const narrowScreenStyle =
  "body{overflow-wrap:anywhere}svg,img{max-width:100%;height:auto}" +
  "@media (max-width:40rem){table{display:block;max-width:100%;overflow-x:auto}}";
