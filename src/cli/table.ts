/**
 * Plain-text tables for terminal output, fitted to a width: columns padded to their widest cell,
 * the last column (descriptions, errors: the long free text) wrapped into the room the others
 * leave. When they leave too little, each row's last cell goes on its own indented lines below
 * it. Nothing is cut: a line is longer than the width only when the other columns' cells alone
 * are. No colours inside cells (widths stay honest).
 */

/** The narrowest room worth wrapping the last column into; below it, the last cell goes below its row. */
const MIN_ROOM = 24;
/** Indent of a last cell printed below its row. */
const INDENT = 4;

/**
 * Renders `rows` under `headers`, fitted to `columns` (see the file comment; `Infinity`: nothing
 * is wrapped or cut). Newlines in cells become spaces.
 */
export function table(headers: readonly string[], rows: ReadonlyArray<readonly string[]>, columns = 100): string {
  const clean = (cell: string) => cell.replace(/\s*\n\s*/g, ' ');
  const all = [headers.map(clean), ...rows.map((row) => headers.map((_, i) => clean(row[i] ?? '')))];
  const last = headers.length - 1;
  const widths = headers.map((_, i) => Math.max(...all.map((row) => length(row[i]!))));
  const lead = (row: readonly string[]) =>
    row.slice(0, last).map((cell, i) => cell + ' '.repeat(widths[i]! - length(cell)));
  const prefix = widths.slice(0, last).reduce((sum, w) => sum + w + 2, 0);
  const room = columns - prefix;

  const lines: string[] = [];
  for (const row of all) {
    const text = row[last]!;
    if (last === 0) lines.push(...(Number.isFinite(columns) ? wrap(text, columns) : [text]));
    else if (!Number.isFinite(columns)) lines.push([...lead(row), text].join('  ').trimEnd());
    else if (room >= MIN_ROOM) {
      const [first = '', ...rest] = wrap(text, room);
      lines.push([...lead(row), first].join('  ').trimEnd(), ...rest.map((part) => ' '.repeat(prefix) + part));
    } else {
      lines.push(lead(row).join('  ').trimEnd());
      if (text !== '') lines.push(...wrap(text, columns - INDENT).map((part) => ' '.repeat(INDENT) + part));
    }
  }
  return lines.join('\n');
}

/** Characters as the terminal counts them (code points; wide characters count one). */
function length(text: string): number {
  return [...text].length;
}

/** `text` in lines of at most `width` characters, broken at spaces (a longer word is split). */
export function wrap(text: string, width: number): string[] {
  const limit = Math.max(1, width);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter((w) => w !== '')) {
    let rest = word;
    if (line !== '' && length(line) + 1 + length(rest) <= limit) {
      line += ` ${rest}`;
      continue;
    }
    if (line !== '') lines.push(line);
    while (length(rest) > limit) {
      const chars = [...rest];
      lines.push(chars.slice(0, limit).join(''));
      rest = chars.slice(limit).join('');
    }
    line = rest;
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

/** The first line of a description, or an empty string. */
export function firstLine(text: string | undefined): string {
  return (text ?? '').trim().split('\n')[0] ?? '';
}
