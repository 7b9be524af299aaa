/**
 * `config add`, `config remove`, `config get`: one server written into (or taken out of)
 * mcpwire's own config files or, with `--to HOST`, a host's file in that host's shape, through
 * the format-preserving editors of `manager/config/edit`. `--dry-run` prints the diff and writes
 * nothing. Values given with `--env`/`--header` are never printed (`***` in the diff, the entry
 * and `--json`); with `--env-ref` they are written as references to environment variables.
 */
import { addTarget, editableFiles } from '../../manager/config/edit/edit-targets.js';
import { planAdd, planRemove } from '../../manager/config/edit/edit-plan.js';
import type { GivenValue, ServerToWrite } from '../../manager/config/edit/entry-shapes.js';
import { HOST_IDS, isHostId, type HostId } from '../../manager/config/hosts/host-table.js';
import { flag, headerPairs, listOption, pairs, stringOption, UsageError, type ParsedArgs } from '../argv.js';
import type { CliIO } from '../io.js';
import { refuseAddOptionsAfterDashes } from './config-add-trailing-options.js';
import type { Outcome } from '../outcome.js';
import { describeServer, shownServer } from '../server-description.js';
import { findServer } from '../target.js';
import { finish, hostOf, locations, other, scopeOf } from './config-edit-target.js';

/** Runs `config add|remove|get`. */
export function configEditCommand(sub: 'add' | 'remove' | 'get', args: ParsedArgs, io: CliIO): Promise<Outcome> {
  if (sub === 'get') return get(args, io);
  return sub === 'add' ? add(args, io) : remove(args, io);
}

async function add(args: ParsedArgs, io: CliIO): Promise<Outcome> {
  const name = serverName(args, 'add');
  const fromFile = stringOption(args, 'from-server-json');
  if (fromFile !== undefined) {
    if (stringOption(args, 'url') !== undefined || args.command.length)
      throw new UsageError('--from-server-json takes the server from the file: give no --url and no command');
    return (await import('./registry-install.js')).addFromServerJsonFile(args, io, name, fromFile);
  }
  refuseAddOptionsAfterDashes(args, name);
  const host = hostOf(args);
  const scope = scopeOf(args) ?? 'user';
  const { server, variables } = serverToWrite(args, name);
  const target = await addTarget(host, scope, locations(args, io));
  if (!target)
    throw new UsageError(`${host} keeps no servers by name in the ${scope} scope; try --scope ${other(scope)}`);
  const plan = () => planAdd(target, name, server, { force: flag(args, 'force') });
  const notes = variables.length
    ? [`set ${variables.join(', ')} in the environment ${host === 'mcpwire' ? 'mcpwire' : host} runs with`]
    : [];
  return finish(args, plan, notes);
}

async function remove(args: ParsedArgs, io: CliIO): Promise<Outcome> {
  const { host, name } = addressed(args, 'remove');
  const files = editableFiles(host ?? hostOf(args), scopeOf(args), locations(args, io));
  return finish(args, () => planRemove(files, name), []);
}

/**
 * `config get NAME` (mcpwire's layers merged, else the one host server of that name) or `config
 * get HOST:NAME` (that host's server as mcpwire reads it), found as `--server` finds servers.
 */
async function get(args: ParsedArgs, io: CliIO): Promise<Outcome> {
  const { host, name } = addressed(args, 'get');
  const shown = shownServer(await findServer(host ? `${host}:${name}` : name, args, io));
  return { json: shown, text: describeServer(shown).join('\n') };
}

/** The operand as `NAME` or `HOST:NAME` (a host's server, as `--server` addresses it). */
function addressed(args: ParsedArgs, sub: string): { host?: HostId; name: string } {
  const operand = args.words[2];
  const colon = operand?.indexOf(':') ?? -1;
  if (operand === undefined || colon < 0) return { name: serverName(args, sub) };
  const host = operand.slice(0, colon);
  if (!isHostId(host)) throw new UsageError(`"${host}" in "${operand}" is not a host (${HOST_IDS.join(', ')})`);
  if (stringOption(args, 'to') !== undefined) throw new UsageError(`give the host once: ${operand} or --to, not both`);
  return { host, name: serverName({ ...args, words: [...args.words.slice(0, 2), operand.slice(colon + 1)] }, sub) };
}

export function serverName(args: ParsedArgs, sub: string): string {
  const name = args.words[2];
  if (name === undefined) throw new UsageError(`config ${sub} needs a server name`);
  if (args.words.length > 3)
    throw new UsageError(`config ${sub} takes one server name, got: ${args.words.slice(2).join(' ')}`);
  if (!/^[A-Za-z0-9][\w.@-]*$/.test(name))
    throw new UsageError(
      `server name "${name}" must start with a letter or digit and hold only letters, digits, _ . @ -`,
    );
  return name;
}

/**
 * The server of `config add`'s command line: a command after `--`, or `--url` with `--header`s
 * (`--transport sse` for the old HTTP+SSE shape). With `--env-ref` every `--env K=V` is written
 * as a reference to `K`, and every `--header` as one to `NAME_TOKEN` (Authorization, its scheme
 * kept) or `NAME_HEADER`; `variables` lists them for the note that says to set them.
 */
function serverToWrite(args: ParsedArgs, name: string): { server: ServerToWrite; variables: string[] } {
  const url = stringOption(args, 'url');
  const command = args.command;
  if ((url === undefined) === (command.length === 0))
    throw new UsageError('config add needs either --url URL or a command after --, not both');
  const env = pairs(listOption(args, 'env'), 'env') as Record<string, string>;
  // headerPairs would quote a malformed header back, and a header may be a credential.
  if (listOption(args, 'header').some((item) => item.search(/[:=]/) <= 0))
    throw new UsageError('--header expects "Name: value" (one is not; it is not shown here: it may hold a secret)');
  const headers = headerPairs(listOption(args, 'header'));
  const byRef = flag(args, 'env-ref');
  const variables: string[] = [];
  const refer = (record: Record<string, string>, variable: (key: string, value: string) => VariableSpec) =>
    Object.fromEntries(
      Object.entries(record).map(([key, value]): [string, GivenValue] => {
        if (!byRef) return [key, value];
        const spec = variable(key, value);
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(spec.variable))
          throw new UsageError(
            `--env-ref needs variable names of letters, digits and _; "${spec.variable}" is not one`,
          );
        variables.push(spec.variable);
        return [key, spec];
      }),
    );
  if (url !== undefined) {
    if (Object.keys(env).length) throw new UsageError('--env is for command servers; a --url server takes --header');
    if (!/^https?:\/\/[^\s]+$/.test(url)) throw new UsageError(`--url must be an http(s) URL, got "${url}"`);
    const transport = stringOption(args, 'transport') ?? 'http';
    if (transport !== 'http' && transport !== 'sse')
      throw new UsageError(`--transport must be http or sse, got "${transport}"`);
    const prefix = envName(name);
    const server: ServerToWrite = {
      transport,
      url,
      headers: refer(headers, (key, value) => {
        const scheme = /^authorization$/i.test(key) ? /^([A-Za-z][\w-]*\s+)\S/.exec(value)?.[1] : undefined;
        return scheme
          ? { variable: `${prefix}_TOKEN`, prefix: scheme }
          : { variable: `${prefix}_${envName(key)}`, prefix: '' };
      }),
    };
    return { server, variables };
  }
  if (Object.keys(headers).length) throw new UsageError('--header is for --url servers; a command server takes --env');
  const [program, ...rest] = command;
  const server: ServerToWrite = {
    transport: 'stdio',
    command: program!,
    args: rest,
    env: refer(env, (key) => ({ variable: key, prefix: '' })),
  };
  return { server, variables };
}

interface VariableSpec {
  variable: string;
  prefix: string;
}

/** `my-server` as `MY_SERVER`. */
function envName(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}
