/** One yes/no question on the terminal (stderr), default no. Resolves false on Ctrl-D. */
import { createInterface } from 'node:readline/promises';
import type { CliIO } from './io.js';

export async function askYesNo(io: CliIO, question: string): Promise<boolean> {
  const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
  try {
    const closed = new Promise<null>((resolve) => rl.once('close', () => resolve(null)));
    const answer = await Promise.race([rl.question(`${question} [y/N] `), closed]);
    return answer !== null && /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
