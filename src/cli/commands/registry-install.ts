/**
 * Installing a `server.json` (from the registry, or a file with `config add --from-server-json`):
 * {@link planInstall} makes the entry, `config add`'s plan/apply path writes it. Before anything
 * is written the full command line (or URL and headers) is shown, secrets `***`; a terminal is
 * asked to confirm, anything else writes only with `--yes`. Required inputs without a value are
 * asked for on a terminal, else exit 2 naming `--input K=V`. `--dry-run` shows the diff and writes
 * nothing.
 */
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline/promises';
import { addTarget } from '../../manager/config/edit/edit-targets.js';
import { planAdd } from '../../manager/config/edit/edit-plan.js';
import { planInstall, shownInstall, type InstallPlan, type MissingInput } from '../../manager/registry/install-plan.js';
import { checkPackageDigest } from '../../manager/registry/package-digest.js';
import { readServerJson, type ServerJson } from '../../manager/registry/server-json.js';
import { ConfigError, errorMessage } from '../../protocol/errors.js';
import { flag, listOption, pairs, stringOption, UsageError, type ParsedArgs } from '../argv.js';
import { askYesNo } from '../ask.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import type { Outcome } from '../outcome.js';
import { finish, hostOf, locations, other, scopeOf } from './config-edit-target.js';

/** Where the document came from, for the messages and `--json`. */
export interface InstallSource {
  /** The registry's URL, or the file. */
  from: string;
  /** The registry's status of this version. */
  status?: string;
  /** Fetch for the digest check (tests point it at a loopback registry). */
  fetch?: typeof fetch;
}

/** `config add NAME --from-server-json FILE`. */
export async function addFromServerJsonFile(args: ParsedArgs, io: CliIO, name: string, file: string): Promise<Outcome> {
  let text: string;
  try {
    text = file === '-' ? await readStream(io.stdin) : await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read ${file}: ${errorMessage(error)}`, { file });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file} is not JSON: ${errorMessage(error)}`, { file, cause: error });
  }
  return installServer(args, io, name, readServerJson(value, file), { from: file });
}

/** Plans `doc` as server `name`, shows it, asks, and writes it (see the file comment). */
export async function installServer(
  args: ParsedArgs,
  io: CliIO,
  name: string,
  doc: ServerJson,
  source: InstallSource,
): Promise<Outcome> {
  const inputs = pairs(listOption(args, 'input'), 'input') as Record<string, string>;
  const pick = stringOption(args, 'package');
  const options = {
    ...(pick !== undefined ? { pick } : {}),
    ...(source.status !== undefined ? { status: source.status } : {}),
  };
  let plan = planInstall(doc, { ...options, inputs });
  if (plan.missing.length) {
    if (!io.interactive || flag(args, 'json'))
      throw new CliError(
        'INPUT_MISSING',
        `${doc.name} needs ${plan.missing.map((m) => `--input ${m.key}=V${m.description ? ` (${m.description})` : ''}`).join(', ')}; nothing was written`,
        EXIT.config,
      );
    plan = planInstall(doc, { ...options, inputs: { ...inputs, ...(await askInputs(io, plan.missing)) } });
    if (plan.missing.length)
      throw new CliError('INPUT_MISSING', `${doc.name}: required inputs left empty; nothing was written`, EXIT.config);
  }
  const digest =
    plan.package?.fileSha256 !== undefined
      ? await checkPackageDigest(plan.package, { ...(source.fetch ? { fetch: source.fetch } : {}) })
      : 'not-applicable';
  const notices = [...plan.notices, ...(digest === 'ok' ? [`fileSha256 of ${plan.package!.identifier} checked`] : [])];
  if (plan.package?.fileSha256 !== undefined && digest === 'not-applicable')
    notices.push(
      `fileSha256 of ${plan.package.identifier} cannot be checked for ${plan.kind}; the package runs unchecked`,
    );
  const host = hostOf(args);
  const scope = scopeOf(args) ?? 'user';
  const target = await addTarget(host, scope, locations(args, io));
  if (!target)
    throw new UsageError(`${host} keeps no servers by name in the ${scope} scope; try --scope ${other(scope)}`);
  const shown = shownInstall(plan.server);
  const about = {
    name: doc.name,
    version: doc.version,
    from: source.from,
    kind: plan.kind,
    run: shown,
    secrets: plan.secrets,
    notices,
  };
  const head = [
    `${doc.name} ${doc.version} (${plan.kind}) from ${source.from}, as "${name}":`,
    ...shown.map((line) => `  ${line}`),
    ...notices.map((n) => `! ${n}`),
  ];
  const notes = plan.secrets.length
    ? [`set ${plan.secrets.join(', ')} in the environment ${host} runs with (written as references, never values)`]
    : [];
  const makePlan = () => planAdd(target, name, plan.server, { force: flag(args, 'force') });
  const dryRun = flag(args, 'dry-run');
  if (!dryRun && !flag(args, 'yes')) {
    await makePlan(); // refuses a name in use, or a host that cannot hold it, before asking
    if (!io.interactive) {
      return {
        json: { ...about, written: false },
        text: head.join('\n'),
        exitCode: EXIT.usage,
        error: {
          code: 'CONFIRMATION_REQUIRED',
          message: 'nothing was written: pass --yes to write it (or --dry-run to see the diff)',
        },
      };
    }
    io.stderr.write(`${head.join('\n')}\n`);
    if (!(await askYesNo(io, `write it to ${target.file}?`)))
      return { json: { ...about, written: false }, text: 'nothing was written' };
    const done = await finish(args, makePlan, notes);
    return { ...done, json: { ...(done.json as object), install: about } };
  }
  const done = await finish(args, makePlan, notes);
  return { ...done, json: { ...(done.json as object), install: about }, text: [...head, done.text].join('\n') };
}

/** All of `stream` as text (a server.json is small: bounded at 1 MiB). */
async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (text.length > 1 << 20) throw new UsageError('--from-server-json -: stdin holds more than 1 MiB');
  }
  return text;
}

/** Asks for each missing input on the terminal (a secret is never asked: it is a reference). */
async function askInputs(io: CliIO, missing: readonly MissingInput[]): Promise<Record<string, string>> {
  const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
  const answers: Record<string, string> = {};
  try {
    for (const input of missing) {
      const hint = [input.description, input.choices?.length ? `one of ${input.choices.join(', ')}` : undefined]
        .filter(Boolean)
        .join('; ');
      const answer = (await rl.question(`${input.key}${hint ? ` (${hint})` : ''}: `)).trim();
      if (answer !== '') answers[input.key] = answer;
    }
  } finally {
    rl.close();
  }
  return answers;
}

export type { InstallPlan };
