/** Incremental word wrapping for text that arrives in chunks (a streamed artifact). */

/** Complete rows of at most `width` characters, and the unfinished rest of the text. */
export function splitRows(text: string, width: number): { rows: string[]; rest: string } {
  const rows: string[] = [];
  const segments = text.split('\n');
  const last = segments.length - 1;
  segments.forEach((segment, i) => {
    let s = segment;
    while (s.length > width) {
      const space = s.lastIndexOf(' ', width);
      const cut = space > 0 ? space : width;
      rows.push(s.slice(0, cut));
      s = s.slice(space > 0 ? cut + 1 : cut);
    }
    if (i < last) rows.push(s);
    else text = s;
  });
  return { rows, rest: text };
}
