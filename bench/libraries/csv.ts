/**
 * The rows of a CSV text quoted as RFC 4180 has it (as `csvField` writes predictions.csv): fields split at
 * commas outside quotes, a quoted field's doubled quotes read as one, and its commas and line breaks kept as
 * part of the field. A line break outside quotes (LF or CRLF) ends a row; a final line break adds no row.
 */
export const parseCsv = (text: string): string[][] => {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let at = 0; at < text.length; at++) {
    const character = text[at] as string;
    if (quoted) {
      if (character !== '"') field += character;
      else if (text[at + 1] === '"') {
        field += '"';
        at++;
      } else quoted = false;
    } else if (character === '"') quoted = true;
    else if (character === ",") {
      row.push(field);
      field = "";
    } else if (character === "\n" || character === "\r") {
      if (character === "\r" && text[at + 1] === "\n") at++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += character;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
};
