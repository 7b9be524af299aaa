/**
 * `mcpwire completion bash|zsh|fish`: prints the shell's completion script (how to load or
 * install it is in the script's first lines, `mcpwire completion --help` and docs/cli.md).
 */
import { UsageError, type ParsedArgs } from '../argv.js';
import { completionScript, SHELLS } from '../completion/shell-scripts.js';
import type { CliIO } from '../io.js';
import type { Outcome } from '../outcome.js';

export async function completionCommand(args: ParsedArgs, io: CliIO): Promise<Outcome> {
  const shell = args.words[1];
  if (shell === undefined) throw new UsageError(`name a shell: mcpwire completion ${SHELLS.join('|')}`);
  const script = completionScript(shell);
  if (script === undefined)
    throw new UsageError(`no completion for "${shell}": mcpwire completion ${SHELLS.join('|')}`);
  io.stdout.write(script);
  return { json: null, text: '', silent: true };
}
