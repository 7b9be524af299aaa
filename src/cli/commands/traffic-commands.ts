/**
 * `mcpwire proxy` (a recording stand-in for a server in a host's config) and `mcpwire trace
 * show|check` (reading what was recorded). The proxies and the trace readers live in the
 * transport layer; this file only wires options to them.
 */
import path from 'node:path';
import { commandDisplayName } from '../../transport/command-name.js';
import { startHttpProxy } from '../../inspect/proxy/http-proxy.js';
import { runStdioProxy } from '../../inspect/proxy/stdio-proxy.js';
import { checkTrace } from '../../inspect/trace/trace-check.js';
import { isUiLane } from '../../observe/trace-record.js';
import { filterTrace, matchesFilter, readTrace, type TraceFilter } from '../../inspect/trace/read-trace.js';
import { prettyTraceLine } from '../../inspect/trace/sinks.js';
import { pairCalls } from '../../inspect/trace/trace-calls.js';
import { splitSessions } from '../../inspect/trace/trace-sessions.js';
import { latencyTable } from '../../inspect/trace/trace-stats.js';
import { formatSummary, summarizeTrace } from '../../inspect/trace/trace-summary.js';
import { flag, headerPairs, listOption, pairs, stringOption, UsageError, type ParsedArgs } from '../argv.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import type { Outcome } from '../outcome.js';
import { openTrace } from '../trace-output.js';
import { traceExport } from './trace-export.js';
import { traceReport } from './trace-report-command.js';

export async function proxyCommand(args: ParsedArgs, io: CliIO): Promise<Outcome> {
  const url = stringOption(args, 'url');
  if (url === undefined && args.command.length === 0)
    throw new UsageError('proxy needs a server: -- COMMAND ... (stdio) or --url URL (HTTP)');
  if (url !== undefined && args.command.length > 0) throw new UsageError('proxy takes -- COMMAND or --url, not both');
  if (!stringOption(args, 'trace-file') && !flag(args, 'trace') && !stringOption(args, 'otlp-endpoint'))
    io.stderr.write('mcpwire proxy: neither --trace-file nor --trace given: forwarding without recording\n');
  const trace = await openTrace(args, io);
  const records = { onRecord: trace?.sink ?? (() => {}), close: () => trace?.close() ?? Promise.resolve() };
  try {
    if (url === undefined) {
      const [command, ...rest] = args.command;
      const env = pairs(listOption(args, 'env'), 'env') as Record<string, string>;
      const cwd = stringOption(args, 'cwd');
      const result = await runStdioProxy({
        command: command!,
        args: rest,
        server: commandDisplayName(command!, rest),
        ...(Object.keys(env).length ? { env } : {}),
        ...(cwd ? { cwd: path.resolve(io.cwd, cwd) } : {}),
        input: io.stdin,
        output: io.stdout,
        errorOutput: io.stderr,
        onRecord: records.onRecord,
      });
      return {
        json: undefined,
        text: '',
        silent: true,
        exitCode: result.exitCode ?? 1,
        ...(result.signal ? { signal: result.signal } : {}),
      };
    }
    const listen = parseListen(stringOption(args, 'listen') ?? '127.0.0.1:0');
    const headers = headerPairs(listOption(args, 'header'));
    const proxy = await startHttpProxy({
      target: url,
      listen,
      headers,
      onRecord: records.onRecord,
      errorOutput: io.stderr,
    });
    io.stderr.write(`mcpwire proxy: forwarding ${proxy.url} -> ${url} (Ctrl-C to stop)\n`);
    io.stdout.write(`${proxy.url}\n`);
    await untilInterrupted();
    await proxy.close();
    return { json: { url: proxy.url }, text: '', silent: true };
  } finally {
    await records.close();
  }
}

/** `HOST:PORT` (or `PORT`, on 127.0.0.1) of `--listen` and `replay --http`. */
export function parseListen(text: string, option = '--listen'): { host: string; port: number } {
  const at = text.lastIndexOf(':');
  const host = at > 0 ? text.slice(0, at) : '127.0.0.1';
  const port = Number(at >= 0 ? text.slice(at + 1) : text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(`${option} expects HOST:PORT, got "${text}"`);
  return { host, port };
}

/** Resolves on the first SIGINT, SIGTERM or SIGHUP (and removes the handlers). */
export function untilInterrupted(): Promise<void> {
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  return new Promise((resolve) => {
    const done = () => {
      for (const signal of signals) process.off(signal, done);
      resolve();
    };
    for (const signal of signals) process.on(signal, done);
  });
}

export async function traceCommand(args: ParsedArgs, io: CliIO): Promise<Outcome> {
  const sub = args.words[1];
  if (sub !== 'show' && sub !== 'check' && sub !== 'report' && sub !== 'export')
    throw new UsageError(
      sub === undefined
        ? 'trace needs a sub-command: show, check, report or export'
        : `unknown trace sub-command "${sub}" (show, check, report, export)`,
    );
  const file = args.words[2];
  if (file === undefined) throw new UsageError(`missing trace file: mcpwire trace ${sub} FILE.jsonl`);
  const full = path.resolve(io.cwd, file);
  let read: Awaited<ReturnType<typeof readTrace>>;
  try {
    read = await readTrace(full);
  } catch (error) {
    throw new CliError('TRACE_UNREADABLE', `cannot read ${full}: ${(error as Error).message}`, EXIT.usage);
  }
  if (sub === 'export') return traceExport(args, io, read, full);
  const problems = read.problems.map((p) => `${full}:${p.line}: ${p.message}`);
  if (sub === 'report') return traceReport(args, io, read, full, problems);
  return sub === 'show' ? show(args, io, read, problems) : check(args, io, read, problems, full);
}

function show(args: ParsedArgs, io: CliIO, read: Awaited<ReturnType<typeof readTrace>>, problems: string[]): Outcome {
  const id = stringOption(args, 'id');
  const filter: TraceFilter = {};
  const method = stringOption(args, 'method');
  const server = stringOption(args, 'server');
  if (method !== undefined) filter.method = method;
  if (server !== undefined) filter.server = server;
  if (id !== undefined) filter.id = id;
  if (flag(args, 'errors')) filter.errors = true;
  const records = filterTrace(read.records, filter);
  const summary = summarizeTrace(records);
  // Appended runs are summarised apart: latency and span mean something within one session.
  const keep = matchesFilter(filter);
  const sessions = splitSessions(read.records)
    .map((session) => ({ ...session, records: session.records.filter(keep) }))
    // A session without frames (a proxy's own listen and close) is no client session to summarise.
    .filter((session) => session.records.some((record) => record.kind !== 'event'))
    .map((session, i, all) => ({
      index: i + 1,
      of: all.length,
      server: session.server,
      ...(session.lane ? { lane: session.lane } : {}),
      startedAt: session.startedAt,
      summary: summarizeTrace(session.records),
    }));
  const lines = [...records.map((r) => prettyTraceLine(r, { color: io.color }))];
  for (const session of sessions) {
    lines.push(
      '',
      `session ${session.index} of ${session.of}: ${session.server}${session.lane === 'ui' ? ' (app bridge)' : ''}${session.startedAt ? `, started ${session.startedAt}` : ''}`,
      ...formatSummary(session.summary),
    );
  }
  lines.push(...problems.map((p) => `note: ${p}`));
  // Per method and per tool, as `trace report` shows them (nearest-rank p50/p90/p99, error rate);
  // MCP calls only: a view's bridge requests wait on the page, not on the server.
  const latency = latencyTable(pairCalls(records).calls.filter((call) => !isUiLane(records[call.request]!)));
  const json = { records, summary, latency, sessions: sessions.map(({ of: _of, ...session }) => session), problems };
  return { json, text: lines.join('\n') };
}

function check(
  args: ParsedArgs,
  io: CliIO,
  read: Awaited<ReturnType<typeof readTrace>>,
  problems: string[],
  file: string,
): Outcome {
  const notes: string[] = [];
  const schemas = stringOption(args, 'schemas');
  const violations = checkTrace(read.records, {
    lines: read.lines,
    ...(schemas !== undefined ? { schemasDir: path.resolve(io.cwd, schemas) } : {}),
    onNote: (note) => notes.push(note),
  });
  // Bridge records are not checked (not MCP wire traffic): said once, not counted as messages.
  const bridge = read.records.filter(isUiLane).length;
  if (bridge > 0)
    notes.push(
      `${bridge} MCP Apps bridge record${bridge === 1 ? '' : 's'} (ui lane) not checked: not MCP wire traffic`,
    );
  const messages = read.records.filter((r) => r.kind !== 'event' && !isUiLane(r)).length;
  const lines = violations.map(
    (v) =>
      `${file}:${v.line ?? v.index + 1}: ${v.server} ${v.dir === 'in' ? '←' : '→'} ${[v.method, v.id !== undefined ? `#${v.id}` : ''].filter(Boolean).join(' ')} [${v.rule}] ${v.message}${v.revision ? ` (${v.revision})` : ''}`,
  );
  lines.push(...problems.map((p) => `note: ${p}`), ...notes.map((n) => `note: ${n}`));
  lines.push(
    `${violations.length} violation(s) in ${messages} message(s)${schemas ? ' (rules and official schemas)' : ' (rules; --schemas DIR adds the official schemas)'}`,
  );
  const json = { violations, messages, problems, notes };
  if (violations.length > 0)
    return {
      json,
      text: lines.join('\n'),
      exitCode: EXIT.tool,
      error: { code: 'TRACE_VIOLATIONS', message: `${violations.length} violation(s) in ${file}`, violations },
    };
  return { json, text: lines.join('\n') };
}
