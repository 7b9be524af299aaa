/**
 * The command line, parsed: the command words, the options (typed by a table of known
 * options), and the server command after `--`. Pure: no I/O. Unknown options, missing values and
 * values of the wrong form are {@link UsageError}s that name the option.
 */

/** A mistake in how the command was called: exit code 1, with the command's help hint. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** How an option takes its value: none (a flag), one string, a repeatable string, a number. */
export type OptionKind = 'flag' | 'string' | 'list' | 'number';

/** Every option the CLI knows, with its kind. `-e` and `-h` are aliases. */
const OPTIONS: Record<string, OptionKind> = {
  // target selection (every command that talks to a server)
  url: 'string',
  header: 'list',
  transport: 'string',
  server: 'string',
  config: 'list',
  env: 'list',
  cwd: 'string',
  era: 'string',
  'protocol-version': 'string',
  timeout: 'number',
  root: 'list',
  // output and tracing
  json: 'flag',
  trace: 'flag',
  'trace-file': 'string',
  'otlp-endpoint': 'string',
  'otlp-header': 'list',
  color: 'flag',
  'no-color': 'flag',
  help: 'flag',
  version: 'flag',
  // command options
  arg: 'list',
  'args-json': 'string',
  prompt: 'string',
  resource: 'string',
  argument: 'string',
  value: 'string',
  context: 'list',
  from: 'string',
  write: 'string',
  force: 'flag',
  method: 'string',
  id: 'string',
  errors: 'flag',
  schemas: 'string',
  listen: 'string',
  'no-connect': 'flag',
  all: 'flag',
  'trust-project': 'flag',
  project: 'string',
  'max-chars': 'number',
  store: 'string',
  format: 'string',
  output: 'string',
  'include-payloads': 'flag',
  // logins (auth login; --stored-auth-only on every command)
  'no-browser': 'flag',
  'callback-port': 'number',
  'stored-auth-only': 'flag',
  // config add / remove / get
  scope: 'string',
  to: 'string',
  'dry-run': 'flag',
  'env-ref': 'flag',
  verbatim: 'flag',
  'from-server-json': 'string',
  // registry search / show / add
  registry: 'string',
  limit: 'number',
  cursor: 'string',
  package: 'string',
  input: 'list',
  yes: 'flag',
  // app
  once: 'flag',
  // replay, gateway
  http: 'string',
  stdio: 'flag',
  pins: 'string',
  loose: 'flag',
  session: 'number',
};

const ALIASES: Record<string, string> = { e: 'env', h: 'help', V: 'version', o: 'output' };

/**
 * The long name and kind of option `token` as written (`--server`, `-e`, `--server=x`), or
 * undefined for an option the CLI does not know (for shell completion: what to offer after it).
 */
export function optionOf(token: string): { name: string; kind: OptionKind } | undefined {
  const long = token.startsWith('--');
  const body = token.slice(long ? 2 : 1).split('=')[0]!;
  const name = long ? body : ALIASES[body];
  const kind = name === undefined || !Object.hasOwn(OPTIONS, name) ? undefined : OPTIONS[name];
  return name !== undefined && kind !== undefined ? { name, kind } : undefined;
}

export interface ParsedArgs {
  /** Positional words before `--` (command, sub-command, operands). */
  words: string[];
  /** Options by long name: `true` for flags, a string, a number, or a list for repeatable ones. */
  options: Record<string, string | number | boolean | string[]>;
  /** Everything after `--`: the stdio server command and its arguments. */
  command: string[];
}

/** Parses `argv` (without `node` and the script). Throws {@link UsageError}. */
export function parseArgv(argv: readonly string[]): ParsedArgs {
  const parsed: ParsedArgs = { words: [], options: {}, command: [] };
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') {
      parsed.command = argv.slice(i + 1);
      break;
    }
    if (!token.startsWith('-') || token === '-') {
      parsed.words.push(token);
      continue;
    }
    const long = token.startsWith('--');
    const body = long ? token.slice(2) : token.slice(1);
    const eq = body.indexOf('=');
    const rawName = eq >= 0 ? body.slice(0, eq) : body;
    const name = long ? rawName : ALIASES[rawName];
    // `registry show|add --version V` picks a server's version; elsewhere --version is mcpwire's.
    const kind =
      name === 'version' &&
      parsed.words[0] === 'registry' &&
      eq < 0 &&
      argv[i + 1] !== undefined &&
      !argv[i + 1]!.startsWith('-')
        ? 'string'
        : name === undefined
          ? undefined
          : OPTIONS[name];
    if (name === undefined || kind === undefined) throw new UsageError(`unknown option ${long ? '--' : '-'}${rawName}`);
    if (kind === 'flag') {
      if (eq >= 0) throw new UsageError(`option --${name} takes no value`);
      parsed.options[name] = true;
      continue;
    }
    let value: string;
    if (eq >= 0) value = body.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined || next === '--') throw new UsageError(`option --${name} needs a value`);
      value = next;
      i++;
    }
    if (kind === 'list') {
      const list = (parsed.options[name] as string[] | undefined) ?? [];
      list.push(value);
      parsed.options[name] = list;
    } else if (kind === 'number') {
      const number = Number(value);
      if (value.trim() === '' || !Number.isFinite(number) || number < 0)
        throw new UsageError(`option --${name} needs a non-negative number, got "${value}"`);
      parsed.options[name] = number;
    } else parsed.options[name] = value;
  }
  return parsed;
}

/** Typed accessors over {@link ParsedArgs.options}. */
export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.options[name];
  return typeof value === 'string' ? value : undefined;
}

export function listOption(args: ParsedArgs, name: string): string[] {
  const value = args.options[name];
  return Array.isArray(value) ? value : [];
}

export function numberOption(args: ParsedArgs, name: string): number | undefined {
  const value = args.options[name];
  return typeof value === 'number' ? value : undefined;
}

export function flag(args: ParsedArgs, name: string): boolean {
  return args.options[name] === true;
}

/**
 * `key=value` pairs (from `--arg`, `-e`, `--context`) as a record. With `coerce`, each value is
 * read as JSON when it parses (`n=3` is a number, `ok=true` a boolean, `x="3"` a string) and kept
 * as a string otherwise. A pair without `=` is a {@link UsageError} naming the option.
 */
export function pairs(items: readonly string[], option: string, coerce = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new UsageError(`--${option} expects key=value, got "${item}"`);
    const key = item.slice(0, eq);
    const raw = item.slice(eq + 1);
    out[key] = coerce ? coerceValue(raw) : raw;
  }
  return out;
}

/** A command-line value read as JSON when it is JSON, else the string itself. */
export function coerceValue(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** `Name: value` or `Name=value` header strings (`--header`) as a record. */
export function headerPairs(items: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const at = item.search(/[:=]/);
    if (at <= 0) throw new UsageError(`--header expects "Name: value", got "${item}"`);
    out[item.slice(0, at).trim()] = item.slice(at + 1).trim();
  }
  return out;
}

/**
 * Splits a line into words the way a shell would for simple cases: whitespace separates,
 * single and double quotes group (and are removed), a backslash escapes the next character.
 * Throws {@link UsageError} for an unclosed quote.
 */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let started = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < line.length) current += line[++i];
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      current += line[++i];
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) words.push(current);
      current = '';
      started = false;
    } else {
      current += ch;
      started = true;
    }
  }
  if (quote) throw new UsageError(`unclosed ${quote} in: ${line}`);
  if (started) words.push(current);
  return words;
}
