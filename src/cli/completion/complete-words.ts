/**
 * The answer to one TAB: given the words of a command line and which of them is being completed,
 * what may come there — commands, subcommands, options and their listed values (all as `--help`
 * documents them, see `command-facts.ts`), configured server names (`server-names.ts`), and a
 * server's tools, prompts or resources as last listed (`list-cache.ts`). Reads files only; never
 * connects to a server, never fails: what it cannot tell it leaves to the shell's file names.
 */
import path from 'node:path';
import { optionOf } from '../argv.js';
import { COMMANDS } from '../commands/index.js';
import { HELP } from '../help.js';
import { commandFacts, overviewOptions, type CommandFacts, type OperandKind } from './command-facts.js';
import { cachedList, type CachedEntry, type ListKind, type TargetWords } from './list-cache.js';
import { configuredServers } from './server-names.js';

/** One thing the shell may put in place of the word: the value, and a one-line description. */
export interface Candidate {
  value: string;
  description?: string;
}

/** Candidates (already matching the word's prefix), or "complete a file name here". */
export type CompletionAnswer = { files: true } | { files: false; candidates: Candidate[] };

/** Where the command line runs: its environment (HOME, XDG_CACHE_HOME) and directory. */
export interface CompletionContext {
  env: Record<string, string | undefined>;
  cwd: string;
}

/** What the words around the one being completed say. */
interface Reading {
  /** Positional words before it (command, subcommand, operands). */
  positionals: string[];
  /** Options given anywhere on the line (long names), with their values. */
  options: Map<string, string[]>;
  /** The server command after `--`. */
  command: string[];
  /** The option whose value the word is, if it is one. */
  valueFor?: string;
  /** The word comes after `--`: part of the server command. */
  afterDashes: boolean;
}

/** Completes `words[index]` (`words[0]` is the program). */
export async function completeWords(
  words: readonly string[],
  index: number,
  context: CompletionContext,
): Promise<CompletionAnswer> {
  const word = words[index] ?? '';
  const reading = read(words, index);
  if (reading.afterDashes) return { files: true };
  if (reading.valueFor !== undefined) return valueCandidates(reading.valueFor, word, '', reading, context);
  if (word.startsWith('--') && word.includes('=')) {
    const name = optionOf(word)?.name;
    const eq = word.indexOf('=');
    return name === undefined
      ? matching([], word)
      : valueCandidates(name, word.slice(eq + 1), word.slice(0, eq + 1), reading, context);
  }
  const [command, sub] = reading.positionals;
  const facts = command === undefined ? undefined : factsOf(command);
  if (word.startsWith('-')) return matching(optionCandidates(facts, reading), word);
  if (command === undefined || (command === 'help' && reading.positionals.length === 1))
    return matching(commandCandidates(), word);
  if (!facts) return matching([], word);
  let operand: OperandKind | undefined;
  if (facts.subcommands.size) {
    if (sub === undefined)
      return matching(
        [...facts.subcommands.keys()].map((value) => ({ value })),
        word,
      );
    operand = reading.positionals.length === 2 ? facts.subcommands.get(sub)?.operand : undefined;
  } else operand = reading.positionals.length === 1 ? facts.operand : undefined;
  return operandCandidates(operand, word, reading, context);
}

/** Reads the line around the word at `index`: positionals before it, every option, the command. */
function read(words: readonly string[], index: number): Reading {
  const reading: Reading = { positionals: [], options: new Map(), command: [], afterDashes: false };
  for (let i = 1; i < words.length; i++) {
    const token = words[i]!;
    if (token === '--' && i !== index) {
      reading.command = words.slice(i + 1).filter((_, j) => i + 1 + j !== index);
      reading.afterDashes = index > i;
      break;
    }
    if (i === index) continue;
    const option = token.startsWith('-') && token !== '-' ? optionOf(token) : undefined;
    if (option) {
      const values = reading.options.get(option.name) ?? [];
      reading.options.set(option.name, values);
      if (option.kind === 'flag') continue;
      const eq = token.indexOf('=');
      if (eq >= 0 && token.startsWith('--')) values.push(token.slice(eq + 1));
      else if (i + 1 === index) reading.valueFor = option.name;
      else if (i + 1 < words.length) values.push(words[++i]!);
      continue;
    }
    if (i < index && !token.startsWith('-')) reading.positionals.push(token);
  }
  return reading;
}

function factsOf(command: string): CommandFacts | undefined {
  return Object.hasOwn(COMMANDS, command) && Object.hasOwn(HELP, command)
    ? commandFacts(command, HELP[command]!)
    : undefined;
}

function commandCandidates(): Candidate[] {
  return [...Object.keys(COMMANDS), 'help'].map((value) => {
    const summary = value === 'help' ? 'the options of a command' : factsOf(value)?.summary;
    return summary ? { value, description: summary } : { value };
  });
}

/** The options of the command (the overview's without one); a one-value option already given is left out. */
function optionCandidates(facts: CommandFacts | undefined, reading: Reading): Candidate[] {
  const options = facts?.options ?? overviewOptions(HELP.main ?? '');
  return options
    .filter((name) => !reading.options.has(name) || optionOf(`--${name}`)?.kind === 'list')
    .map((name) => ({ value: `--${name}` }));
}

async function valueCandidates(
  option: string,
  word: string,
  prefix: string,
  reading: Reading,
  context: CompletionContext,
): Promise<CompletionAnswer> {
  const prefixed = (candidates: Candidate[]) =>
    matching(
      candidates.map((c) => ({ ...c, value: prefix + c.value })),
      prefix + word,
    );
  if (option === 'server') return prefixed(await serverCandidates(reading, context));
  const [command] = reading.positionals;
  if (option === 'arg' && command === 'call') {
    const tool = (await cached(reading, context, 'tools')).find((t) => t.name === reading.positionals[1]);
    return prefixed((tool?.arguments ?? []).map((name) => ({ value: `${name}=` })));
  }
  if (option === 'prompt') return prefixed(entryCandidates(await cached(reading, context, 'prompts')));
  const listed = (command !== undefined ? factsOf(command)?.values.get(option) : undefined) ?? valuesAnywhere(option);
  if (listed) return prefixed(listed.map((value) => ({ value })));
  return optionOf(`--${option}`)?.kind === 'number' ? matching([], word) : { files: true };
}

/** An option's listed values in any help text (`--era` is documented once, for every command). */
function valuesAnywhere(option: string): string[] | undefined {
  for (const [command, help] of Object.entries(HELP)) {
    const values = commandFacts(command, help).values.get(option);
    if (values) return values;
  }
  return undefined;
}

async function operandCandidates(
  operand: OperandKind | undefined,
  word: string,
  reading: Reading,
  context: CompletionContext,
): Promise<CompletionAnswer> {
  switch (operand) {
    case 'file':
      return { files: true };
    case 'server':
      return matching(await serverCandidates(reading, context), word);
    case 'tool':
    case 'prompt':
    case 'resource':
      return matching(entryCandidates(await cached(reading, context, `${operand}s`)), word);
    default:
      return matching([], word);
  }
}

async function serverCandidates(reading: Reading, context: CompletionContext): Promise<Candidate[]> {
  const cwd = path.resolve(context.cwd, reading.options.get('cwd')?.at(-1) ?? '.');
  const servers = await configuredServers({
    homeDir: context.env.HOME,
    cwd,
    configFiles: (reading.options.get('config') ?? []).map((file) => path.resolve(cwd, file)),
  });
  return servers.map(({ name, detail }) => (detail ? { value: name, description: detail } : { value: name }));
}

function cached(reading: Reading, context: CompletionContext, kind: ListKind): Promise<CachedEntry[]> {
  const target: TargetWords = {
    server: reading.options.get('server')?.at(-1),
    url: reading.options.get('url')?.at(-1),
    command: reading.command,
  };
  return cachedList(context.env, target, kind);
}

function entryCandidates(entries: readonly CachedEntry[]): Candidate[] {
  return entries.map(({ name, description }) => (description ? { value: name, description } : { value: name }));
}

/** The candidates that start with `word`, descriptions on one line. */
function matching(candidates: readonly Candidate[], word: string): CompletionAnswer {
  return {
    files: false,
    candidates: candidates
      .filter((c) => c.value.startsWith(word))
      .map((c) => {
        const description = c.description?.replace(/\s+/g, ' ').trim();
        return description ? { value: c.value, description } : { value: c.value };
      }),
  };
}
