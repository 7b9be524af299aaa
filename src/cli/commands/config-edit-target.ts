/**
 * Where a config edit goes and how it is written, shared by `config add|remove` and the
 * registry installs: the host (`--to`), the scope (`--scope`), the file locations, and
 * {@link finish}, which prints the diff (`--dry-run`) or writes the plan.
 */
import os from 'node:os';
import path from 'node:path';
import { FileChangedError, type WriteResult } from '../../manager/config/edit/atomic-write.js';
import { applyEditPlan, type EditPlan } from '../../manager/config/edit/edit-plan.js';
import type { EditFile } from '../../manager/config/edit/edit-targets.js';
import { HOST_IDS, isHostId, type HostId, type HostLocationOptions } from '../../manager/config/hosts/host-table.js';
import { flag, stringOption, UsageError, type ParsedArgs } from '../argv.js';
import type { CliIO } from '../io.js';
import type { Outcome } from '../outcome.js';

/**
 * Prints the diff (`--dry-run`) or writes the plan and says where. A write that finds the file
 * changed since it was read (another program, another mcpwire) plans again on the new text.
 */
export async function finish(args: ParsedArgs, makePlan: () => Promise<EditPlan>, notes: string[]): Promise<Outcome> {
  let plan = await makePlan();
  const about = () => ({
    action: plan.action,
    server: plan.server,
    host: plan.target.host,
    scope: plan.target.scope,
    file: plan.target.file,
    ...(plan.entry ? { entry: plan.entry } : {}),
    ...(plan.replaced ? { replaced: true } : {}),
  });
  if (flag(args, 'dry-run'))
    return {
      json: { ...about(), dryRun: true, diff: plan.diff, notes },
      text: [plan.diff || '(no change)', ...notes.map((n) => `# ${n}`)].join('\n'),
    };
  let written: WriteResult | undefined;
  for (let attempt = 1; !written; attempt++) {
    try {
      written = await applyEditPlan(plan);
    } catch (error) {
      if (!(error instanceof FileChangedError) || attempt === 5) throw error;
      plan = await makePlan();
    }
  }
  const verb = plan.action === 'add' ? (plan.replaced ? 'replaced' : 'added') : 'removed';
  const where = `${plan.action === 'add' ? 'in' : 'from'} ${written.file}`;
  const kept = written.backup
    ? `; the previous version is in ${written.backup}`
    : written.created
      ? '; created it'
      : '';
  return {
    json: { ...about(), file: written.file, created: written.created, backup: written.backup ?? null, notes },
    text: [`${verb} server "${plan.server}" ${where} (${describeTarget(plan.target)}${kept})`, ...notes].join('\n'),
  };
}

export function hostOf(args: ParsedArgs): 'mcpwire' | HostId {
  const host = stringOption(args, 'to');
  if (host === undefined || host === 'mcpwire') return 'mcpwire';
  if (!isHostId(host)) throw new UsageError(`--to must be one of mcpwire, ${HOST_IDS.join(', ')}; got "${host}"`);
  return host;
}

export function scopeOf(args: ParsedArgs): 'user' | 'project' | undefined {
  const scope = stringOption(args, 'scope');
  if (scope !== undefined && scope !== 'user' && scope !== 'project')
    throw new UsageError(`--scope must be user or project, got "${scope}"`);
  return scope;
}

export function other(scope: 'user' | 'project'): 'user' | 'project' {
  return scope === 'user' ? 'project' : 'user';
}

function describeTarget(target: EditFile): string {
  return `${target.host === 'mcpwire' ? 'mcpwire' : target.host}, ${target.scope} scope`;
}

/** Where the files are: `$HOME`, `--cwd`, this platform, the environment (`XDG_CONFIG_HOME`, `CODEX_HOME`, …). */
export function locations(args: ParsedArgs, io: CliIO): HostLocationOptions {
  return {
    homeDir: io.env.HOME ?? os.homedir(),
    cwd: path.resolve(io.cwd, stringOption(args, 'cwd') ?? '.'),
    platform: process.platform,
    env: io.env,
  };
}
