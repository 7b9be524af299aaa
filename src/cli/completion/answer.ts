/**
 * `mcpwire __complete INDEX WORD...`: the hidden command the completion scripts run on every TAB
 * (`WORD[0]` is the program, INDEX the word being completed). Prints one candidate a line,
 * `value<TAB>description`, or the line `:files` when a file name goes there. Exits 0 with no
 * output when nothing fits; exits 1 only for a malformed call (no INDEX).
 */
import { EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { completeWords } from './complete-words.js';

export async function completionAnswer(argv: readonly string[], io: CliIO): Promise<number> {
  const index = Number(argv[0]);
  const words = argv.slice(1);
  if (!Number.isInteger(index) || index < 1 || words.length === 0) {
    io.stderr.write('usage: mcpwire __complete INDEX WORD... (run by the completion scripts)\n');
    return EXIT.usage;
  }
  const answer = await completeWords(words, index, { env: io.env, cwd: io.cwd });
  const lines = answer.files
    ? [':files']
    : answer.candidates.map((c) => (c.description ? `${c.value}\t${c.description}` : c.value));
  if (lines.length) io.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}
