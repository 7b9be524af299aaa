/**
 * Carries a change made on a re-printed text back onto the original text. Libraries that keep
 * comments through a document model (YAML's) still re-print the untouched lines in their own
 * spacing (`key: 1   # note` becomes `key: 1 # note`); so the change is taken as a line diff
 * (`diff`'s `diffLines`) between the re-printed text before and after the edit, and only those
 * lines are replaced in the original.
 */
import { diffLibrary } from './editor-libraries.js';

/**
 * `original` with the lines that changed from `printedBefore` to `printedAfter` changed alike,
 * or undefined when the two texts before do not line up (a different number of lines: the
 * re-printing moved lines, so no line can be mapped). Every other line of `original` keeps its
 * bytes. Throws `DEPENDENCY_MISSING` when `diff` (an optional peer dependency) is not installed.
 */
export function spliceLineChanges(original: string, printedBefore: string, printedAfter: string): string | undefined {
  const lines = splitLines(original);
  if (lines.length !== splitLines(printedBefore).length) return undefined;
  const out: string[] = [];
  let at = 0;
  for (const part of diffLibrary().diffLines(printedBefore, printedAfter)) {
    const count = splitLines(part.value).length;
    if (part.added) out.push(part.value);
    else {
      if (!part.removed) out.push(...lines.slice(at, at + count));
      at += count;
    }
  }
  return out.join('');
}

/** The lines of `text`, each with its line ending (the last may have none). */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}
