/**
 * What shell completion knows about each command, read from the one place `--help` prints it:
 * the command's help text (`../help.ts`). Its `Usage:` lines give the subcommands
 * (`mcpwire auth login ...`, `mcpwire completion bash|zsh|fish`) and the operand each takes
 * (`TOOL`, `NAME`, `FILE.jsonl`); every `--option` it mentions is offered (when the parser knows
 * it); `--option a|b|c` gives that option's values. So completion offers what `--help` documents,
 * and a new command completes as soon as it has a help text. Pure: no I/O.
 */
import { optionOf } from '../argv.js';

/** The operand a command (or subcommand) takes: by its placeholder in the usage line. */
export type OperandKind = 'tool' | 'prompt' | 'resource' | 'server' | 'file';

/** One command, or one subcommand, as its usage lines describe it. */
export interface CommandFacts {
  /** Subcommand → its facts (empty when the command has none). */
  subcommands: Map<string, CommandFacts>;
  /** What its first operand is, when it takes one completion can offer. */
  operand?: OperandKind;
  /** The long options its help mentions (`--server`, `-e` as `--env`), in order of mention. */
  options: string[];
  /** Option → the values its help lists (`--transport http|sse`). */
  values: Map<string, string[]>;
  /** The first line of the help's description, for shells that show one. */
  summary: string;
}

const PLACEHOLDERS: Record<string, OperandKind> = {
  TOOL: 'tool',
  PROMPT: 'prompt',
  URI: 'resource',
  NAME: 'server',
  SERVER: 'server',
  FILE: 'file',
  DIR: 'file',
};

/** Reads a command's facts from its help text. */
export function commandFacts(command: string, help: string): CommandFacts {
  const facts = emptyFacts(help, '');
  for (const tokens of usageLines(help, command)) {
    const first = tokens[0];
    if (first !== undefined && /^[a-z][a-z0-9-]*(\|[a-z][a-z0-9-]*)*$/.test(first)) {
      for (const name of first.split('|')) {
        const sub = facts.subcommands.get(name) ?? emptyFacts(help, '');
        sub.operand ??= operandOf(tokens.slice(1));
        facts.subcommands.set(name, sub);
      }
    } else facts.operand ??= operandOf(tokens);
  }
  facts.summary = facts.subcommands.size ? [...facts.subcommands.keys()].join(', ') : summaryOf(help);
  return facts;
}

/** The options the overview's `Options:` paragraph lists (what goes before a command). */
export function overviewOptions(help: string): string[] {
  const paragraph = help.split(/\n\s*\n/).find((p) => p.startsWith('Options:'));
  return paragraph === undefined ? [] : optionsIn(paragraph);
}

/**
 * The options the usage lines of `mcpwire COMMAND SUB` mention (the line that starts it and the
 * ones that continue it, up to the next `mcpwire COMMAND` line), with the values their help lists:
 * the subcommand's own options, as `--help` documents them. `instead`: those of a group the
 * usage offers in place of a server command (`(--url URL [--header …] | -- COMMAND …)`).
 */
export function subcommandOptions(
  command: string,
  sub: string,
  help: string,
): { options: string[]; values: Map<string, string[]>; instead: string[] } {
  const start = help.indexOf('Usage:');
  const block = start < 0 ? '' : help.slice(start).split(/\n\s*\n/)[0]!;
  const prefix = `mcpwire ${command} `;
  const lines: string[] = [];
  let inside = false;
  for (const line of block.split('\n')) {
    const at = line.indexOf(prefix);
    if (at >= 0 && /^(Usage:)?\s*$/.test(line.slice(0, at)))
      inside = line.slice(at + prefix.length).startsWith(`${sub} `);
    else if (!/^\s/.test(line)) inside = false;
    if (inside) lines.push(line);
  }
  const text = lines.join('\n');
  const alternative = /\(([^()|]*)\|\s*--\s+COMMAND/.exec(text)?.[1];
  return {
    options: optionsIn(text),
    values: valuesIn(text),
    instead: alternative === undefined ? [] : optionsIn(alternative),
  };
}

function emptyFacts(help: string, summary: string): CommandFacts {
  return { subcommands: new Map(), options: optionsIn(help), values: valuesIn(help), summary };
}

/** The words after `mcpwire COMMAND` on each line of the usage block, brackets removed. */
function usageLines(help: string, command: string): string[][] {
  const start = help.indexOf('Usage:');
  if (start < 0) return [];
  const block = help.slice(start).split(/\n\s*\n/)[0]!;
  const prefix = `mcpwire ${command}`;
  return block.split('\n').flatMap((line) => {
    const at = line.indexOf(prefix);
    if (at < 0 || !/^(Usage:)?\s*$/.test(line.slice(0, at))) return [];
    const rest = line.slice(at + prefix.length);
    if (rest !== '' && !/^\s/.test(rest)) return [];
    return [rest.split(/\s+/).filter((word) => word !== '')];
  });
}

/** The kind of the first operand among usage tokens: the first placeholder not an option's value. */
function operandOf(tokens: readonly string[]): OperandKind | undefined {
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!.replace(/^[[(]+|[\])]+$|\.\.\.$/g, '');
    if (token === '--') return undefined;
    if (token.startsWith('-')) {
      const option = optionOf(token);
      if (option && option.kind !== 'flag') i++;
      continue;
    }
    if (token === '|' || token === '') continue;
    const placeholder = /^([A-Z][A-Z_]*)(\.\w+)?$/.exec(token)?.[1];
    if (placeholder === undefined) return undefined;
    return PLACEHOLDERS[placeholder] ?? PLACEHOLDERS[placeholder.split('_')[0]!];
  }
  return undefined;
}

/** The long names of the options `help` mentions that the parser knows, each once. */
function optionsIn(help: string): string[] {
  const names = new Set<string>();
  for (const match of help.matchAll(/(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])(?![\w-])/g)) {
    const option = optionOf(match[1]!);
    if (option) names.add(option.name);
  }
  return [...names];
}

/** `--option a|b|c` in `help`: the listed values by option. */
function valuesIn(help: string): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const match of help.matchAll(/--([a-z][a-z0-9-]*)[ =]([a-z0-9][a-z0-9.-]*(?:\|[a-z0-9][a-z0-9.-]*)+)/g))
    values.set(match[1]!, match[2]!.split('|'));
  return values;
}

/** The first sentence of the first paragraph after the usage block (its first line at most, no aside). */
function summaryOf(help: string): string {
  const paragraphs = help.split(/\n\s*\n/);
  const line = (paragraphs[help.startsWith('Usage:') ? 1 : 0] ?? '').split('\n')[0]!.trim();
  const sentence = /^(.*?[^.])[.:;](\s|$)/.exec(line)?.[1] ?? line;
  return sentence.split(' (')[0]!;
}
