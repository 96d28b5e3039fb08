/**
 * A rule for the prompt of an agent that splits a user's query into sub-questions before researching them.
 * A single aggregate figure ("total options volume today") is one lookup: split into parts (one sub-question
 * per expiration date), the parts come back incomplete and their sum is passed off as the total.
 */
export const singleAggregateLookupRule = `Query decomposition rule:
- If the query asks for a single aggregate figure (for example "total options volume today", "overall revenue in 2024"), treat it as one numerical lookup of that figure. Do not split it into sub-questions about its parts.
- Split a query into parts only when the user explicitly asks to compare items or to break the figure down (by category, date, segment or region).
- If the aggregate itself cannot be found, report that it was not found; never answer with a sum of the parts that were found.`;
