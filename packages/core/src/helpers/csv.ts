/**
 * Reads CSV text (RFC 4180, as the conversation-log export writes it) into rows of cells: rows end with CRLF,
 * a quoted cell may hold commas, CR, LF and doubled quotes. A last row without CRLF counts too.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(cell);
      cell = "";
    } else if (char === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += char;
  }
  if (row.length > 0 || cell !== "") rows.push([...row, cell]);
  return rows;
}
