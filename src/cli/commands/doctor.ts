/**
 * `mcpwire doctor [NAME] [--json]`: what each configured server (or the one named, or a
 * `--url` / `-- COMMAND` target) needs to work, checked one step at a time
 * (`manager/doctor/`), each a line with a verdict and a fix. Exit 0 when nothing failed
 * (warnings allowed); otherwise the exit code of the first failed check's kind (2 config,
 * 3 auth, 4 unreachable or not starting, 5 tool definitions, 6 timeout).
 */
import { diagnoseServer, DEFAULT_CHECK_TIMEOUT_MS } from '../../manager/doctor/diagnose.js';
import type { FailureKind, ServerDiagnosis, Verdict } from '../../manager/doctor/doctor-types.js';
import type { ManagedServer } from '../../manager/servers/managed-server.js';
import { McpError } from '../../protocol/errors.js';
import { VERSION } from '../../util/version.js';
import { cliApproval } from '../approval.js';
import { numberOption, stringOption, UsageError, type ParsedArgs } from '../argv.js';
import { withConfigErrors } from '../config-errors.js';
import { EXIT } from '../exit-codes.js';
import { paint, type CliIO } from '../io.js';
import { loginCommand, loginStore } from '../login.js';
import type { Outcome } from '../outcome.js';
import { configLoader, resolveTarget } from '../target.js';

const EXIT_OF: Record<FailureKind, number> = {
  config: EXIT.config,
  auth: EXIT.auth,
  unreachable: EXIT.unreachable,
  tool: EXIT.tool,
  timeout: EXIT.timeout,
};

interface Subject {
  spec: ManagedServer;
  approved: boolean;
  byUrl: boolean;
}

export async function doctorCommand(args: ParsedArgs, io: CliIO): Promise<Outcome> {
  const name = args.words[1];
  if (args.words.length > 2) throw new UsageError(`doctor takes one server name, got also "${args.words[2]}"`);
  const adHoc = args.command.length > 0 || stringOption(args, 'url') !== undefined;
  if (name !== undefined && (adHoc || stringOption(args, 'server') !== undefined))
    throw new UsageError('doctor takes one server: NAME, --server NAME, --url URL or -- COMMAND');
  let subjects: Subject[];
  let configErrors: string[] = [];
  if (adHoc) {
    const target = await resolveTarget(args, io);
    subjects = [{ spec: target.spec, approved: true, byUrl: target.byUrl }];
  } else {
    const loaded = await configLoader(args, io).load();
    configErrors = loaded.errors.map((e) => e.message);
    const wanted = name ?? stringOption(args, 'server');
    const servers = wanted === undefined ? loaded.servers : loaded.servers.filter((s) => s.name === wanted);
    if (wanted !== undefined && servers.length === 0)
      throw new McpError(
        'CONFIG_INVALID',
        `server "${wanted}" is not configured (configured: ${loaded.servers.map((s) => s.name).join(', ') || 'none'})`,
      );
    const approve = cliApproval(args, io);
    subjects = [];
    // One at a time: on a terminal each unapproved project server is a question.
    for (const spec of servers)
      subjects.push({ spec, approved: spec.trusted === false ? await approve(spec) : true, byUrl: false });
  }
  const timeoutMs = numberOption(args, 'timeout') ?? DEFAULT_CHECK_TIMEOUT_MS;
  const store = loginStore(args, io);
  const reports = await Promise.all(
    subjects.map((s) =>
      diagnoseServer(s.spec, {
        timeoutMs,
        store,
        loginCommand: loginCommand(s.spec, s.byUrl),
        ...(io.env.PATH !== undefined ? { envPath: io.env.PATH } : {}),
        cwd: io.cwd,
        approved: s.approved,
        clientInfo: { name: 'mcpwire-doctor', version: VERSION },
      }),
    ),
  );
  const lines = reports.length ? reports.flatMap((r) => reportLines(r, io.color)) : ['no servers configured'];
  const failing = reports.filter((r) => r.verdict === 'fail');
  const warning = reports.filter((r) => r.verdict === 'warn');
  if (reports.length)
    lines.push(
      `${reports.length} server(s): ${reports.length - failing.length - warning.length} ok, ${warning.length} with warnings, ${failing.length} failing`,
    );
  for (const error of configErrors) lines.push(`config error: ${error}`);
  const outcome: Outcome = { json: { servers: reports, configErrors }, text: lines.join('\n') };
  const first = failing[0]?.checks.find((c) => c.verdict === 'fail');
  if (first) return { ...outcome, exitCode: EXIT_OF[first.kind ?? 'unreachable'] };
  return withConfigErrors(outcome, configErrors, true);
}

const MARK: Record<Verdict, string> = { ok: 'ok  ', warn: 'warn', fail: 'fail', skip: 'skip' };

function reportLines(report: ServerDiagnosis, color: boolean): string[] {
  const p = paint(color);
  const tint: Record<Verdict, (text: string) => string> = { ok: p.green, warn: p.yellow, fail: p.red, skip: p.dim };
  const width = Math.max(...report.checks.map((c) => c.id.length));
  const lines = [p.bold(`${report.server} (${report.transport}: ${report.target})`)];
  for (const check of report.checks) {
    lines.push(`  ${tint[check.verdict](MARK[check.verdict])}  ${check.id.padEnd(width)}  ${check.detail}`);
    if (check.fix && check.verdict !== 'ok' && check.verdict !== 'skip')
      lines.push(`  ${' '.repeat(4)}  ${' '.repeat(width)}  fix: ${check.fix}`);
  }
  lines.push('');
  return lines;
}
