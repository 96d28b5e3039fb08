/** `veracity/text`: how an answer is cut into sentences and claims before any check reads it. */
export { segmentClaims } from "./claims.js";
export { type Sentence, splitSentences } from "./sentences.js";
