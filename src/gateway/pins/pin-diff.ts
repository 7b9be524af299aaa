/**
 * A line diff of two tool definitions, for a person deciding whether to approve a change
 * (`mcpwire gateway pins`). Both sides are the pinned fields as canonical JSON (keys sorted at every
 * depth), pretty-printed, so only real differences show; lines are compared by a longest common
 * subsequence, written here (a definition is a few hundred lines at most).
 */
import type { Tool } from '../../protocol/types.js';
import { pinnedView } from './tool-fingerprint.js';

/** Unchanged lines shown around each change. */
const CONTEXT = 2;

/** Past this many cells (lines × lines, common ends cut) the diff is every old line, then every new one. */
const MAX_TABLE = 4_000_000;

/**
 * The pinned fields of `approved` and `now` as a line diff: `- ` lines only in `approved`, `+ `
 * lines only in `now`, `  ` unchanged context (two lines around each change), and `  …` where
 * unchanged lines are left out. `approved` undefined (a tool never approved) shows all of `now` as
 * added. The empty string when the pinned fields are equal. Pure; `_meta` never shows.
 */
export function pinDiff(approved: Tool | undefined, now: Tool): string {
  const before = approved === undefined ? [] : canonicalLines(approved);
  const after = canonicalLines(now);
  const ops = diffLines(before, after);
  if (ops.every((op) => op.kind === ' ')) return '';
  return render(ops);
}

/** The pinned fields of `tool` as pretty-printed JSON with keys sorted at every depth, one array item per line. */
export function canonicalLines(tool: Tool): string[] {
  return JSON.stringify(sortedKeys(pinnedView(tool)), null, 2).split('\n');
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined) out[key] = sortedKeys(member);
    }
    return out;
  }
  return value;
}

interface Op {
  kind: ' ' | '-' | '+';
  line: string;
}

/** The edit script from `a` to `b`: common ends cut first, then an LCS table over the middle. */
function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const head = a.slice(0, start).map((line): Op => ({ kind: ' ', line }));
  const tail = a.slice(endA).map((line): Op => ({ kind: ' ', line }));
  return [...head, ...middle(a.slice(start, endA), b.slice(start, endB)), ...tail];
}

function middle(a: readonly string[], b: readonly string[]): Op[] {
  const removed = a.map((line): Op => ({ kind: '-', line }));
  const added = b.map((line): Op => ({ kind: '+', line }));
  if (!a.length || !b.length || a.length * b.length > MAX_TABLE) return [...removed, ...added];
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..], in one flat row-major array.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) ops.push({ kind: '-', line: a[i++]! });
    else ops.push({ kind: '+', line: b[j++]! });
  }
  while (i < a.length) ops.push({ kind: '-', line: a[i++]! });
  while (j < b.length) ops.push({ kind: '+', line: b[j++]! });
  return ops;
}

/** The script as text: changes with {@link CONTEXT} lines around them, `  …` for each gap. */
function render(ops: readonly Op[]): string {
  const near = ops.map(() => false);
  ops.forEach((op, at) => {
    if (op.kind === ' ') return;
    for (let k = Math.max(0, at - CONTEXT); k <= Math.min(ops.length - 1, at + CONTEXT); k++) near[k] = true;
  });
  const out: string[] = [];
  let skipped = false;
  ops.forEach((op, at) => {
    if (!near[at]) {
      if (!skipped) out.push('  …');
      skipped = true;
      return;
    }
    skipped = false;
    out.push(`${op.kind} ${op.line}`);
  });
  return out.join('\n');
}
