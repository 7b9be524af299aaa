/**
 * `config add NAME -- CMD … --to cursor --dry-run`: everything after `--` is the server's command
 * line, so `config add`'s own options written there would silently become the server's
 * arguments (and the entry would go to the wrong file, for real). They are refused instead,
 * naming them and the fix, before anything is read or written; `--verbatim` takes the command
 * as written, for a server that really takes such an option.
 *
 * `config add`'s options are the ones its usage lines in `config --help` mention (the one list
 * completion offers too). An option whose help lists its values (`--scope user|project`,
 * `--transport http|sse`) counts only with one of them: `-- server --transport stdio` is the
 * server's own option; so is one of those the usage offers in place of a command (`--url`,
 * `--header`: a command server takes neither).
 */
import { flag, optionOf, UsageError, type ParsedArgs } from '../argv.js';
import { subcommandOptions } from '../completion/command-facts.js';
import { HELP } from '../help.js';

/** Throws {@link UsageError} when the command after `--` holds options of `config add` (unless `--verbatim`). */
export function refuseAddOptionsAfterDashes(args: ParsedArgs, name: string): void {
  if (flag(args, 'verbatim') || args.command.length === 0) return;
  const own = subcommandOptions('config', 'add', HELP.config ?? '');
  const found: string[] = [];
  const kept: string[] = [];
  const words = args.command;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const option = word.startsWith('-') && word !== '-' && word !== '--' ? optionOf(word) : undefined;
    if (!option || !own.options.includes(option.name) || own.instead.includes(option.name)) {
      kept.push(word);
      continue;
    }
    const eq = word.startsWith('--') ? word.indexOf('=') : -1;
    const hasNext = option.kind !== 'flag' && eq < 0 && i + 1 < words.length;
    const value = option.kind === 'flag' ? undefined : eq >= 0 ? word.slice(eq + 1) : words[i + 1];
    const listed = own.values.get(option.name);
    if (listed && (value === undefined || !listed.includes(value))) {
      kept.push(word);
      continue;
    }
    found.push(masked(option.name, word, hasNext ? value : undefined));
    if (hasNext) i++;
  }
  if (!found.length) return;
  const these = found.length === 1 ? 'it is an option' : 'they are options';
  throw new UsageError(
    `${found.join(', ')} after -- would be the server's arguments, but ${these} of config add; nothing was written.\n` +
      `Put ${found.length === 1 ? 'it' : 'them'} before --: mcpwire config add ${name} … ${found.join(' ')} -- ${kept.length ? shown(kept[0]!) : 'COMMAND'}${kept.length > 1 ? ' …' : ''}\n` +
      `(a server that really takes ${found.length === 1 ? 'it' : 'them'}: add --verbatim, and everything after -- is kept as written)`,
  );
}

/**
 * An option as written, its value hidden when it may be a secret (`--env K=***`, `--header
 * 'Name: ***'`): the server's arguments are not echoed either, only its program.
 */
function masked(option: string, word: string, next: string | undefined): string {
  const eq = word.startsWith('--') ? word.indexOf('=') : -1;
  const value = next ?? (eq >= 0 ? word.slice(eq + 1) : undefined);
  if (value === undefined) return word;
  const head = eq >= 0 ? word.slice(0, eq + 1) : `${word} `;
  if (option === 'env') return `${head}${shown(`${value.split('=')[0]}=***`)}`;
  if (option === 'header') return `${head}${shown(`${value.split(/[:=]/)[0]}: ***`)}`;
  return `${head}${shown(value)}`;
}

/** A word as a POSIX shell would need it to read it back as one word. */
function shown(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
