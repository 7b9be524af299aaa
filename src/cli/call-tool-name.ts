/**
 * The tool `mcpwire call` names: one operand (words after it are a usage error: arguments go in
 * `--arg`), either the tool's own name or the manager's namespaced name `mcp__<server>__<tool>`
 * (`repl`, permission rules and the LLM exports use it). A namespaced name picks its configured
 * server by the manager's prefix rule when the line names no server; one that names another
 * server than `--server` is a usage error. Once the server's tools are listed, the name is
 * resolved by the manager's own name table (`ToolRegistry`), so provider-safe and hashed names
 * work too.
 */
import { serverOfToolName } from '../manager/catalogue/tool-name-owner.js';
import { ToolRegistry } from '../manager/catalogue/tool-registry.js';
import type { Tool } from '../protocol/types.js';
import { stringOption, UsageError, type ParsedArgs } from './argv.js';
import { configLoader } from './config-options.js';
import type { CliIO } from './io.js';

const NAMESPACED = /^mcp__./;

/**
 * The command line of `call`, checked before anything connects: one tool name, and for a
 * namespaced name with no target, `--server` set to the configured server it names. Throws
 * {@link UsageError}.
 */
export async function callCommandLine(args: ParsedArgs, io: CliIO): Promise<ParsedArgs> {
  const name = args.words[1];
  const stray = args.words.slice(2);
  if (stray.length) {
    const pairs = stray.filter((word) => /^[^=\s]+=/.test(word));
    const fix = pairs.length
      ? `; tool arguments go in --arg: ${pairs.map((word) => `--arg ${shellWord(word)}`).join(' ')}`
      : '; call takes one tool name, and its arguments in --arg key=value or --args-json';
    throw new UsageError(`unexpected ${stray.map((w) => `"${w}"`).join(' ')} after the tool name ${name}${fix}`);
  }
  if (name === undefined || !NAMESPACED.test(name)) return args;
  if (args.command.length > 0 || stringOption(args, 'url') !== undefined) return args;
  const configured = (await configLoader(args, io).load()).servers.map((s) => s.name);
  const owner = serverOfToolName(name, configured);
  const given = stringOption(args, 'server');
  if (given !== undefined) {
    if (owner !== undefined && owner !== given && !namesServer(name, given))
      throw new UsageError(`${name} is a tool of server "${owner}", not of --server ${given}; give one of them`);
    return args;
  }
  if (owner === undefined)
    throw new UsageError(
      `${name} names no configured server (configured: ${configured.join(', ') || 'none'}); give --server NAME`,
    );
  return { ...args, options: { ...args.options, server: owner } };
}

/**
 * The tool of `tools` that `name` stands for on `server` (the `--server` name): its own name,
 * else the namespaced name the manager would give it. Undefined when neither is listed.
 */
export function toolNamed(name: string, server: string | undefined, tools: readonly Tool[]): Tool | undefined {
  const own = tools.find((tool) => tool.name === name);
  if (own || server === undefined || !NAMESPACED.test(name)) return own;
  // A host's server (`cursor:fs`) is namespaced by its name in that host's file.
  for (const key of new Set([server, server.slice(server.indexOf(':') + 1)])) {
    const registry = new ToolRegistry();
    registry.register(key, tools);
    const address = registry.resolveToolName(name);
    if (address) return tools.find((tool) => tool.name === address.tool);
  }
  return undefined;
}

function namesServer(name: string, server: string): boolean {
  return serverOfToolName(name, [server, server.slice(server.indexOf(':') + 1)]) !== undefined;
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
