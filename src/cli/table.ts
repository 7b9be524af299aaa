/**
 * Plain-text tables for terminal output: columns padded to their widest cell, the last column
 * cut to the terminal width with an ellipsis. No colours inside cells (widths stay honest).
 */

/** Renders `rows` under `headers`. Newlines in cells become spaces. */
export function table(headers: readonly string[], rows: ReadonlyArray<readonly string[]>, columns = 100): string {
  const clean = (cell: string) => cell.replace(/\s*\n\s*/g, ' ');
  const all = [headers.map(clean), ...rows.map((row) => row.map(clean))];
  const widths = headers.map((_, i) => Math.max(...all.map((row) => [...(row[i] ?? '')].length)));
  const lines = all.map((row) => {
    const cells = row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)));
    return fit(cells.join('  ').trimEnd(), columns);
  });
  return lines.join('\n');
}

/** Cuts `line` to `width` characters, ending with `…` when cut. */
export function fit(line: string, width: number): string {
  const chars = [...line];
  return chars.length <= width || width < 2 ? line : `${chars.slice(0, width - 1).join('')}…`;
}

/** The first line of a description, or an empty string. */
export function firstLine(text: string | undefined): string {
  return (text ?? '').trim().split('\n')[0] ?? '';
}
