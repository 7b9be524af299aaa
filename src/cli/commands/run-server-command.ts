/**
 * Runs one of the commands that talk to a single server (`info`, `tools`, `call`, …): opens the
 * session the command line names, runs the command, closes the session whatever happens. A
 * signal closes the session before the exit; an error carries none of the target's secrets and,
 * when the server wants a login, names the login command.
 */
import { jsonText } from '../../protocol/json-text.js';
import { flag, UsageError, type ParsedArgs } from '../argv.js';
import { unprintableError } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import type { Outcome } from '../outcome.js';
import { callCommandLine } from '../call-tool-name.js';
import { withServerSession } from '../session-run.js';
import { COMMAND_METHODS, SERVER_COMMANDS } from './server-commands.js';

/** Runs server command `command`; throws {@link UsageError} for a name that is not one. */
export async function runServerCommand(command: string, given: ParsedArgs, io: CliIO): Promise<Outcome> {
  const serverCommand = Object.hasOwn(SERVER_COMMANDS, command) ? SERVER_COMMANDS[command] : undefined;
  if (!serverCommand) throw new UsageError(`unknown command "${command}"; try mcpwire --help`);
  const args = command === 'call' ? await callCommandLine(given, io) : given;
  return withServerSession(args, io, async (client) => {
    const outcome = await serverCommand(client, args, io);
    const problem = flag(args, 'json') ? jsonText(outcome.json).problem : undefined;
    if (problem !== undefined)
      throw unprintableError(client.name, COMMAND_METHODS[command] ?? command, 'result', `it is ${problem}`);
    return outcome;
  });
}
