/**
 * `mcpwire replay FILE.jsonl [--http HOST:PORT] [--loose] [--session N]`: serves the server side
 * of a recorded session (a trace of `mcpwire proxy` or `--trace-file`), over stdio or Streamable
 * HTTP, so the recording becomes a regression fixture. The replay itself lives in
 * `inspect/replay/`; this file wires the options to it and reports on stderr.
 */
import path from 'node:path';
import { startReplayHttp } from '../../inspect/replay/replay-http.js';
import { ReplayPlayer, type ReplayStats } from '../../inspect/replay/replay-player.js';
import { loadReplayScript, type ReplayScript } from '../../inspect/replay/replay-script.js';
import { ReplaySession } from '../../inspect/replay/replay-session.js';
import { McpError } from '../../protocol/errors.js';
import { StdioServerTransport } from '../../transport/stdio/stdio-server.js';
import { flag, numberOption, stringOption, UsageError, type ParsedArgs } from '../argv.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import type { Outcome } from '../outcome.js';
import { parseListen, untilInterrupted } from './traffic-commands.js';

export async function replayCommand(args: ParsedArgs, io: CliIO): Promise<Outcome> {
  const file = args.words[1];
  if (file === undefined) throw new UsageError('missing trace file: mcpwire replay FILE.jsonl');
  if (args.words.length > 2) throw new UsageError(`replay takes one trace file, got also "${args.words[2]}"`);
  const session = numberOption(args, 'session');
  if (session !== undefined && (!Number.isInteger(session) || session < 1))
    throw new UsageError(`--session expects a session number from 1, got ${session}`);
  const full = path.resolve(io.cwd, file);
  let script: ReplayScript;
  try {
    script = await loadReplayScript(full, session === undefined ? {} : { session });
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    throw new CliError('REPLAY_REFUSED', error.reason, EXIT.usage, { cause: error });
  }
  const options = {
    loose: flag(args, 'loose'),
    onLog: (line: string) => io.stderr.write(`mcpwire replay: ${line}\n`),
  };
  const http = stringOption(args, 'http');
  if (http === undefined) {
    const player = new ReplayPlayer(script, options);
    const replay = new ReplaySession(new StdioServerTransport({ stdin: io.stdin, stdout: io.stdout }), player);
    await replay.closed;
    return ended(io, [player.stats()], options.loose);
  }
  const server = await startReplayHttp({ script, ...parseListen(http, '--http'), ...options });
  io.stderr.write(`mcpwire replay: serving ${full} at ${server.url} (Ctrl-C to stop)\n`);
  io.stdout.write(`${server.url}\n`);
  await untilInterrupted();
  await server.close();
  return ended(io, server.stats(), options.loose);
}

/**
 * One summary line per replayed session on stderr. Exit 5 when a request did not match, or (strict)
 * when a recorded request was never asked for: the client no longer does what was recorded.
 */
function ended(io: CliIO, sessions: ReplayStats[], loose: boolean): Outcome {
  let failed = false;
  sessions.forEach((stats, i) => {
    const which = sessions.length > 1 ? ` session ${i + 1}:` : '';
    io.stderr.write(
      `mcpwire replay:${which} served ${stats.served} of ${stats.recorded} recorded request(s), ${stats.mismatches} mismatch(es), ${stats.unserved} never asked for\n`,
    );
    if (stats.mismatches > 0 || (!loose && stats.unserved > 0)) failed = true;
  });
  return { json: sessions, text: '', silent: true, ...(failed ? { exitCode: EXIT.tool } : {}) };
}
