/**
 * `mcpwire`: argv in, exit code out. Parses the command line, runs the command, prints its
 * outcome (a human form, or with `--json` one envelope `{ ok, result | error }` on stdout) and
 * maps failures to the documented exit codes. Errors go to stderr in the human form; nothing
 * an error message carries is an expanded secret (the layers below redact).
 */
import { selfCommand } from '../util/self-command.js';
import { flag, parseArgv, UsageError, type ParsedArgs } from './argv.js';
import { commandNamed } from './commands/index.js';
import { CliError, errorJson, exitCodeOf, EXIT } from './exit-codes.js';
import { jsonText } from '../protocol/json-text.js';
import { VERSION } from '../util/version.js';
import { paint, type CliIO } from './io.js';
import type { Outcome } from './outcome.js';
import { errorMessage } from '../protocol/errors.js';

/** How a run ended: an exit code, or (the proxy) the signal that ended its server. */
export interface CliExit {
  code: number;
  signal?: NodeJS.Signals;
}

/** Runs one command line. Resolves with how to exit; never rejects. */
export async function main(argv: readonly string[], io: CliIO): Promise<CliExit> {
  let ended: NodeJS.Signals | undefined;
  const code = await runMain(argv, io, (signal) => (ended = signal));
  return ended ? { code, signal: ended } : { code };
}

async function runMain(argv: readonly string[], io: CliIO, endWith: (signal: NodeJS.Signals) => void): Promise<number> {
  let args: ParsedArgs | undefined;
  try {
    // A TAB of the shell's completion: words as typed, never parsed as options.
    if (argv[0] === '__complete')
      return await (await import('./completion/answer.js')).completionAnswer(argv.slice(1), io);
    args = parseArgv(argv);
    if (flag(args, 'no-color')) io = { ...io, color: false };
    if (flag(args, 'color')) io = { ...io, color: true };
    const command = args.words[0];
    if (flag(args, 'version')) return print(io, args, { json: { version: VERSION }, text: `mcpwire ${VERSION}` });
    if (command === undefined || command === 'help') {
      const { HELP } = await import('./help.js');
      const topic = args.words[1];
      io.stdout.write(`${HELP[topic ?? 'main'] ?? HELP.main}\n`);
      return command === undefined && !flag(args, 'help') ? EXIT.usage : EXIT.ok;
    }
    if (flag(args, 'help')) {
      const { HELP } = await import('./help.js');
      const text = Object.hasOwn(HELP, command) ? HELP[command] : undefined;
      if (!text) throw new UsageError(`unknown command "${command}"`);
      io.stdout.write(`${text}\n`);
      return EXIT.ok;
    }
    const outcome = await run(command, args, io);
    if (outcome.signal) endWith(outcome.signal);
    return print(io, args, outcome);
  } catch (error) {
    return fail(io, args, error);
  }
}

async function run(command: string, args: ParsedArgs, io: CliIO): Promise<Outcome> {
  const runner = commandNamed(command);
  if (!runner) throw new UsageError(`unknown command "${command}"; try mcpwire --help`);
  return runner(args, io);
}

function print(io: CliIO, args: ParsedArgs, outcome: Outcome): number {
  const code = outcome.exitCode ?? EXIT.ok;
  if (outcome.silent) return code;
  if (flag(args, 'json')) {
    const envelope =
      code === EXIT.ok || !outcome.error
        ? { ok: code === EXIT.ok, result: outcome.json }
        : { ok: false, error: { ...outcome.error, exitCode: code } };
    const json = jsonText(envelope);
    if (json.text === undefined)
      return fail(
        io,
        args,
        new CliError(
          'RESULT_TOO_DEEP',
          `the result of mcpwire ${args.words[0] ?? ''} cannot be printed: it is ${json.problem}`,
          EXIT.unprintable,
        ),
      );
    io.stdout.write(`${json.text}\n`);
  } else {
    if (outcome.text !== '') io.stdout.write(`${outcome.text}\n`);
    if (code !== EXIT.ok && outcome.error)
      io.stderr.write(`${paint(io.color).red('error:')} ${outcome.notice ?? outcome.error.message}\n`);
  }
  return code;
}

function fail(io: CliIO, args: ParsedArgs | undefined, error: unknown): number {
  const code = exitCodeOf(error);
  if (args && flag(args, 'json')) {
    const shown = errorJson(error);
    let json = jsonText({ ok: false, error: shown });
    // A peer's error data nested too deeply to write: the error still prints, without it.
    if (json.text === undefined)
      json = jsonText({
        ok: false,
        error: { ...shown, data: undefined, dataOmitted: `the error's data is ${json.problem}` },
      });
    io.stdout.write(
      `${json.text ?? JSON.stringify({ ok: false, error: { code: String(shown.code), message: String(shown.message), exitCode: code } })}\n`,
    );
  } else {
    const message = errorMessage(error);
    const hint =
      error instanceof UsageError
        ? `\n(see ${selfCommand(io.env).join(' ')} ${args?.words[0] && commandNamed(args.words[0]) ? `${args.words[0]} ` : ''}--help)`
        : '';
    io.stderr.write(`${paint(io.color).red('error:')} ${message}${hint}\n`);
  }
  return code;
}
