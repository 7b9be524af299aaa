/**
 * Completion and `--help` read one table, so they cannot drift: every command of the lazy
 * command table has a help text and every help text (but the overview) is a command; every
 * option a help text mentions is one the parser knows (completion offers exactly those);
 * subcommands and operands come from the help's usage lines.
 */
import { describe, expect, it } from 'vitest';
import { optionOf } from '../src/cli/argv.js';
import { COMMANDS } from '../src/cli/commands/index.js';
import { commandFacts } from '../src/cli/completion/command-facts.js';
import { HELP } from '../src/cli/help.js';

describe('the command table and the help texts', () => {
  it('name the same commands', () => {
    expect(
      Object.keys(HELP)
        .filter((topic) => topic !== 'main')
        .sort(),
    ).toEqual(Object.keys(COMMANDS).sort());
  });

  it('mention only options the parser knows', () => {
    for (const [topic, text] of Object.entries(HELP)) {
      const unknown = [...text.matchAll(/(?<![\w-])(--[a-z][a-z0-9-]*)(?![\w-])/g)]
        .map((m) => m[1]!)
        .filter((option) => !optionOf(option));
      expect(unknown, `mcpwire ${topic} --help`).toEqual([]);
    }
  });

  it('give completion its subcommands, operands, options and values', () => {
    const auth = commandFacts('auth', HELP.auth!);
    expect([...auth.subcommands.keys()]).toEqual(['login', 'status', 'logout']);
    expect(auth.subcommands.get('login')?.operand).toBe('server');
    expect(commandFacts('call', HELP.call!).operand).toBe('tool');
    expect(commandFacts('prompt', HELP.prompt!).operand).toBe('prompt');
    expect(commandFacts('read', HELP.read!).operand).toBe('resource');
    expect(commandFacts('trace', HELP.trace!).subcommands.get('show')?.operand).toBe('file');
    expect(commandFacts('proxy', HELP.proxy!).operand).toBeUndefined();
    expect([...commandFacts('completion', HELP.completion!).subcommands.keys()]).toEqual(['bash', 'zsh', 'fish']);
    const tools = commandFacts('tools', HELP.tools!);
    expect(tools.options).toEqual(expect.arrayContaining(['server', 'url', 'header', 'env', 'json', 'trace-file']));
    expect(tools.values.get('transport')).toEqual(['http', 'sse']);
  });
});
