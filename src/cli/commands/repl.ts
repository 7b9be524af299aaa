/**
 * `mcpwire repl`: an interactive prompt over a manager of every configured server. Takes the
 * `/mcp …` commands of the manager layer and `call <tool> {json}` / `call <tool> k=v …`. Works on
 * a terminal (prompt, history) and on piped input (one command per line, no prompt).
 */
import { createInterface } from 'node:readline';
import { handleCommand } from '../../manager/commands.js';
import { resultToText } from '../../llm/result-text.js';
import type { McpManager } from '../../manager/mcp-manager.js';
import { McpError } from '../../protocol/errors.js';
import { coerceValue, splitWords, UsageError, type ParsedArgs } from '../argv.js';
import { pairArguments } from '../tool-arguments.js';
import type { Interrupt } from '../interrupt.js';
import type { CliIO } from '../io.js';
import { paint } from '../io.js';
import type { Outcome } from '../outcome.js';
import { cliManager } from './config-commands.js';
import { storedAuthOnly, storedLoginsMissing } from '../login.js';

const HELP = `commands:
  /mcp [servers|tools [server]|resources|prompts|connect NAME|disconnect NAME|reconnect NAME|reload|help]
  call mcp__server__tool {"json":"arguments"}    or    call mcp__server__tool key=value ...
  help, exit`;

/**
 * The repl; `interrupt` (SIGHUP when its terminal closes, SIGTERM, SIGINT off a terminal)
 * disconnects every server before the process exits.
 */
export async function replCommand(args: ParsedArgs, io: CliIO, interrupt?: Interrupt): Promise<Outcome> {
  const { manager, close } = await cliManager(args, io);
  interrupt?.onInterrupt(close);
  const c = paint(io.color);
  const out = (text: string) => io.stdout.write(`${text}\n`);
  const { connected, failed } = await manager.connectAll();
  const missing = storedAuthOnly(args) ? storedLoginsMissing(manager) : undefined;
  if (missing) {
    await close();
    throw missing;
  }
  out(
    `mcpwire repl: ${connected.length} server(s) connected${failed.length ? `, ${failed.length} failed (${failed.map((f) => f.server).join(', ')})` : ''}. Type help.`,
  );
  for (const error of manager.getStatus().configErrors) out(c.red(`config error: ${error}`));
  const rl = createInterface({
    input: io.stdin,
    output: io.stdout,
    terminal: io.interactive,
    prompt: io.interactive ? c.cyan('mcp> ') : '',
  });
  let commands = 0;
  // Ctrl-C at the prompt leaves the repl (after disconnecting every server), as Ctrl-D does.
  rl.on('SIGINT', () => rl.close());
  try {
    rl.prompt();
    for await (const raw of rl) {
      const line = raw.trim();
      if (line === 'exit' || line === 'quit') break;
      if (line !== '') {
        commands++;
        out(await runLine(manager, line, c));
      }
      rl.prompt();
    }
  } finally {
    rl.close();
    await close();
  }
  return { json: { commands }, text: '' };
}

async function runLine(manager: McpManager, line: string, c: ReturnType<typeof paint>): Promise<string> {
  if (line === 'help' || line === '?') return HELP;
  if (line.startsWith('/')) {
    const answer = await handleCommand(manager, line);
    return answer.ok ? answer.text : c.red(answer.text);
  }
  const call = /^call\s+(\S+)\s*(.*)$/.exec(line);
  if (!call) return c.red(`unknown command: ${line}\n${HELP}`);
  try {
    const [, name, rest = ''] = call;
    const args = rest.trim().startsWith('{')
      ? (coerceValue(rest.trim()) as Record<string, unknown>)
      : pairArguments(splitWords(rest), definitionOf(manager, name!), (key) => key);
    if (!args || typeof args !== 'object' || Array.isArray(args))
      return c.red('arguments must be a JSON object or key=value pairs');
    const result = await manager.callTool(name!, args);
    const text = resultToText(result).text;
    return result.isError ? c.red(text) : text;
  } catch (error) {
    if (error instanceof UsageError) return c.red(error.message);
    return c.red(error instanceof McpError ? `${error.code}: ${error.message}` : String(error));
  }
}

/** The definition of the tool the manager exposes as `name` (its schema types `k=v` values), if it has it. */
function definitionOf(manager: McpManager, name: string) {
  const address = manager.resolveToolName(name);
  return address
    ? manager.getAllTools().find((t) => t.server === address.server && t.tool === address.tool)?.definition
    : undefined;
}
