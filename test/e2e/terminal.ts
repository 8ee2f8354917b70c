/** A tiny terminal emulator: what a screen shows after the live display's escape sequences. */

/** The rows left on screen after writing `output` (colors dropped, trailing blanks trimmed). */
export function screen(output: string): string[] {
  const rows: string[] = [''];
  let row = 0;
  let col = 0;
  for (let i = 0; i < output.length; i++) {
    const ch = output[i] ?? '';
    if (ch === '\x1b') {
      // eslint-disable-next-line no-control-regex -- ANSI escape sequences are what we parse
      const match = /^\x1b\[(\d*)([A-Za-z])/.exec(output.slice(i));
      if (!match) continue;
      i += match[0].length - 1;
      const [, n, command] = match;
      if (command === 'A') row = Math.max(0, row - Number(n || 1));
      else if (command === 'K') rows[row] = '';
      continue;
    }
    if (ch === '\r') col = 0;
    else if (ch === '\n') {
      row++;
      col = 0;
      while (rows.length <= row) rows.push('');
    } else {
      const line = (rows[row] ?? '').padEnd(col);
      rows[row] = line.slice(0, col) + ch + line.slice(col + 1);
      col++;
    }
  }
  return rows.map((r) => r.trimEnd()).filter((r, i, all) => r !== '' || i < all.length - 1);
}
