/**
 * Plain-text tables for terminal output, fitted to a width: columns padded to their widest cell,
 * the last column (descriptions, errors: the long free text) wrapped into the room the others
 * leave. When they leave too little, each row's last cell goes on its own indented lines below
 * it. Nothing is lost: a line is longer than the width only when the other columns' cells alone
 * are; a table of errors ({@link notedTable}) keeps each row on one line and gives a cut cell's
 * whole text as a numbered note below. No colours inside cells (widths stay honest).
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
  return layout(headers, rows, columns).lines.join('\n');
}

/** Per row of a {@link notedTable} (index `i` for row `i`). */
export interface NoteOptions {
  /** The whole text of a cut last cell, for its note (default: the cell). */
  notes?: ReadonlyArray<string | undefined>;
  /**
   * The part a last cell starts with that is never cut (where a server is defined, before why it
   * fails): it wraps when it must, as in {@link table}; the rest is cut, or left out when too
   * little of it would show. A cell that is all `keep` is never cut nor noted.
   */
  keep?: ReadonlyArray<string | undefined>;
}

/**
 * A table whose last column holds errors (or other text a reader scans, not reads): each row
 * stays one line. A last cell longer than its room is cut with `…` and a marker `[N]`, and its
 * whole text follows the table as note `[N]`, wrapped to `columns` under its marker (see
 * {@link NoteOptions}). `Infinity`: nothing is cut, no notes.
 */
export function notedTable(
  headers: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  columns = 100,
  options: NoteOptions = {},
): string {
  const { lines, cut } = layout(headers, rows, columns, options.keep ?? []);
  if (cut.length === 0) return lines.join('\n');
  const out = [...lines, ''];
  cut.forEach((row, i) => {
    const marker = `[${i + 1}] `;
    const text = clean(options.notes?.[row] ?? rows[row]![headers.length - 1] ?? '');
    const [first = '', ...rest] = wrap(text, columns - marker.length);
    out.push(marker + first, ...rest.map((part) => ' '.repeat(marker.length) + part));
  });
  return out.join('\n');
}

/** The fewest characters of a cut cell's text worth showing before its `…`. */
const MIN_SHOWN = 12;

/**
 * `text` in `width` on one line cut with `… [N]` (`n`), or, when `keep` (its start) is given, `keep`
 * whole (wrapped when it must be) followed by as much of the rest as shows on its line.
 */
function cutCell(text: string, width: number, n: number, keep: string | undefined): string[] {
  const marker = `… [${n}]`;
  if (keep === undefined || !text.startsWith(keep)) {
    return [
      [...text]
        .slice(0, Math.max(0, width - length(marker)))
        .join('')
        .trimEnd() + marker,
    ];
  }
  const lead = keep.trimEnd().replace(/:$/, '');
  const room = width - length(keep) - length(marker);
  if (room >= MIN_SHOWN) return [keep + [...text.slice(keep.length)].slice(0, room).join('').trimEnd() + marker];
  return wrap(`${lead} [${n}]`, width);
}

const clean = (cell: string) => cell.replace(/\s*\n\s*/g, ' ').trim();

/** The rows laid out; `keep` given: one line per last cell (cut rows in `cut`), else wrapped. */
function layout(
  headers: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  columns: number,
  keep?: ReadonlyArray<string | undefined>,
): { lines: string[]; cut: number[] } {
  const all = [headers.map(clean), ...rows.map((row) => headers.map((_, i) => clean(row[i] ?? '')))];
  const last = headers.length - 1;
  const widths = headers.map((_, i) => Math.max(...all.map((row) => length(row[i]!))));
  const lead = (row: readonly string[]) =>
    row.slice(0, last).map((cell, i) => cell + ' '.repeat(widths[i]! - length(cell)));
  const prefix = widths.slice(0, last).reduce((sum, w) => sum + w + 2, 0);
  const room = columns - prefix;
  const below = last > 0 && room < MIN_ROOM;
  /** Row `index`'s last cell in `width` characters: wrapped, or one line cut with a note's marker. */
  const fit = (text: string, width: number, index: number): string[] => {
    if (keep === undefined || index === 0) return wrap(text, width);
    if (length(text) <= width) return [text];
    const whole = keep[index - 1];
    // Nothing after the part kept whole: a long cell that is not an error wraps as in any table.
    if (whole !== undefined && text.startsWith(whole) && text.slice(whole.length).trim() === '')
      return wrap(text, width);
    cut.push(index - 1);
    return cutCell(text, width, cut.length, whole);
  };

  const lines: string[] = [];
  const cut: number[] = [];
  all.forEach((row, index) => {
    const text = row[last]!;
    if (!Number.isFinite(columns)) lines.push([...lead(row), text].join('  ').trimEnd());
    else if (last === 0) lines.push(...fit(text, columns, index));
    else if (!below) {
      const [first = '', ...rest] = fit(text, room, index);
      lines.push([...lead(row), first].join('  ').trimEnd(), ...rest.map((part) => ' '.repeat(prefix) + part));
    } else {
      lines.push(lead(row).join('  ').trimEnd());
      if (text !== '') lines.push(...fit(text, columns - INDENT, index).map((part) => ' '.repeat(INDENT) + part));
    }
  });
  return { lines, cut };
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
