/**
 * `config add` and `config remove` as plans: the file, its text before and after, and the diff
 * `--dry-run` prints, computed without writing; {@link applyEditPlan} then writes the plan
 * atomically with a backup. Secrets never reach the diff or the entry shown: the values the
 * command line gave are `***` there, and so are the values of the file's secret-looking keys.
 */
import { readFile } from 'node:fs/promises';
import { ConfigError, errorMessage, McpError } from '../../../protocol/errors.js';
import { redactHeaderValue } from '../../../util/redact.js';
import { SECRET_NAME } from '../redact.js';
import { writeFileAtomic, type WriteResult } from './atomic-write.js';
import { isObject, valueAt, type ConfigDocument, type Entry } from './config-document.js';
import type { EditFile } from './edit-targets.js';
import { entryShape, mcpwireContainer, type GivenValue, type ServerToWrite } from './entry-shapes.js';
import { openConfigDocument } from './open-document.js';
import { unifiedDiff } from './unified-diff.js';

/** One planned edit of one file. */
export interface EditPlan {
  action: 'add' | 'remove';
  server: string;
  target: EditFile;
  /** The key path of the servers in the file. */
  container: readonly string[];
  /** The file's text before (undefined: the file does not exist yet). */
  before: string | undefined;
  after: string;
  /**
   * The unified diff, secrets as `***` (empty when nothing changes); computed when first read, so
   * a plan that is only written never needs `diff` (an optional peer dependency: reading this
   * without it throws `DEPENDENCY_MISSING`).
   */
  readonly diff: string;
  /** Added: the entry as written, the given values as `***`. */
  entry?: Entry;
  /** Added with `force` over an entry of the same name. */
  replaced?: boolean;
}

/**
 * Plans adding `server` as `name` to `target` in the target host's shape. Rejects with
 * `INVALID_ARGUMENT` when an entry `name` exists (unless `force`: it is replaced in place) or the
 * host cannot hold the server, `CONFIG_INVALID` when the file does not parse (file, line, column).
 */
export async function planAdd(
  target: EditFile,
  name: string,
  server: ServerToWrite,
  options: { force?: boolean } = {},
): Promise<EditPlan> {
  const shape = entryShape(target.host);
  if (!shape)
    throw new McpError(
      'INVALID_ARGUMENT',
      `${target.host}: config add cannot write its servers; add "${name}" by hand`,
    );
  const before = await readText(target.file);
  const document = openConfigDocument(target.file, before ?? '', target.format);
  const container = containerOf(target, document);
  const entries = valueAt(document.value, container);
  const fits = entries == null || (target.list ? Array.isArray(entries) : isObject(entries));
  if (!fits || (target.list && target.format !== 'yaml'))
    throw new ConfigError(
      `"${container.join('.')}" is not ${target.list ? 'a list' : 'a table'} of servers; not edited`,
      { file: target.file },
    );
  const replaced = name in document.entries(container);
  if (replaced && !options.force)
    throw new McpError(
      'INVALID_ARGUMENT',
      `server "${name}" already exists in ${target.file}; use --force to replace it`,
    );
  const list = target.list === true;
  const after = document.withEntry(container, name, shape(server, name), list);
  const shown = shape(hideGiven(server), name);
  const diff = once(() =>
    unifiedDiff(target.file, before, document.withEntry(container, name, shown, list), [
      ...givenSecrets(server),
      ...documentSecrets(document.value),
    ]),
  );
  return {
    action: 'add',
    server: name,
    target,
    container,
    before,
    after,
    get diff() {
      return diff();
    },
    entry: shown,
    replaced,
  };
}

/**
 * Plans removing entry `name` from the one of `files` that holds it. Rejects with
 * `CONFIG_INVALID` naming every file looked in when none holds it (or one does not parse), and
 * with `INVALID_ARGUMENT` naming them when several do (a narrower `--scope` picks one).
 */
export async function planRemove(files: readonly EditFile[], name: string): Promise<EditPlan> {
  const holding: Array<{ target: EditFile; document: ConfigDocument; container: readonly string[]; before: string }> =
    [];
  for (const target of files) {
    const before = await readText(target.file);
    if (before === undefined) continue;
    const document = openConfigDocument(target.file, before, target.format);
    const container = containerOf(target, document);
    if (name in document.entries(container)) holding.push({ target, document, container, before });
  }
  if (holding.length === 0)
    throw new McpError(
      'CONFIG_INVALID',
      `server "${name}" is not in ${files.map((f) => f.file).join(', ') || 'any file'} (looked in every one)`,
    );
  if (holding.length > 1)
    throw new McpError(
      'INVALID_ARGUMENT',
      `server "${name}" is in ${holding.map((h) => `${h.target.file} (${h.target.scope})`).join(' and ')}; pass --scope to pick one`,
    );
  const { target, document, container, before } = holding[0]!;
  const after = document.withoutEntry(container, name);
  const diff = once(() => unifiedDiff(target.file, before, after, documentSecrets(document.value)));
  return {
    action: 'remove',
    server: name,
    target,
    container,
    before,
    after,
    get diff() {
      return diff();
    },
  };
}

/** `make()`'s value, made on the first call and kept (a throw is not kept: the next call tries again). */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** Writes `plan` (atomically, with a backup; see `writeFileAtomic`). */
export function applyEditPlan(plan: EditPlan): Promise<WriteResult> {
  return writeFileAtomic(plan.target.file, plan.after, plan.before);
}

function containerOf(target: EditFile, document: ConfigDocument): readonly string[] {
  return target.at ?? mcpwireContainer(document.value);
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`cannot read: ${errorMessage(error)}`, { file, cause: error });
  }
}

/** `server` with every given env and header value as `***` (an Authorization scheme stays: `Bearer ***`). */
function hideGiven(server: ServerToWrite): ServerToWrite {
  const hide = (
    record: Record<string, GivenValue> | undefined,
    header: boolean,
  ): Record<string, GivenValue> | undefined =>
    record &&
    Object.fromEntries(
      Object.entries(record).map(([key, value]): [string, GivenValue] => {
        if (typeof value !== 'string') return [key, value];
        const shown = header ? redactHeaderValue(key, value) : '***';
        return [key, shown.endsWith('***') ? shown : '***'];
      }),
    );
  const env = hide(server.env, false);
  const headers = hide(server.headers, true);
  return { ...server, ...(env ? { env } : {}), ...(headers ? { headers } : {}) };
}

function givenSecrets(server: ServerToWrite): string[] {
  return [...Object.values(server.env ?? {}), ...Object.values(server.headers ?? {})].flatMap((value) =>
    typeof value === 'string' ? [value, ...value.split(/\s+/).slice(1)] : [],
  );
}

/** Keys that name variables rather than hold values (Codex, Goose). */
const VARIABLE_NAMES = /env_vars?$|env_keys$|env_http_headers$/i;
const REFERENCE = /^\$?\{[^}]*\}$/;

/**
 * The values under secret-looking keys anywhere in `value` (`API_TOKEN`, `Authorization`'s
 * credential, `clientSecret`), for scrubbing a diff; references (`${VAR}`, `{env:VAR}`) are not
 * secrets and stay visible.
 */
export function documentSecrets(value: unknown, key = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => documentSecrets(item, key));
  if (isObject(value))
    return Object.entries(value).flatMap(([k, v]) => (VARIABLE_NAMES.test(k) ? [] : documentSecrets(v, k)));
  if (typeof value !== 'string' || REFERENCE.test(value)) return [];
  const shown = redactHeaderValue(key, value);
  if (shown !== value) {
    const credential = shown.endsWith(' ***') ? value.slice(shown.length - 3).trim() : value;
    return REFERENCE.test(credential) ? [] : [credential];
  }
  return SECRET_NAME.test(key) ? [value] : [];
}
