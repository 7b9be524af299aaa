/**
 * Every `mcpwire` command by name, each loaded on first use: `mcpwire --version`, `--help` and a
 * shell completion answer load none of them (a TAB runs the CLI, so it must start fast). A new
 * command is one line here, a dynamic `import()` of its module (the build makes each a chunk of
 * its own), and one `--help` text in `../help.ts`; shell completion reads its name from here.
 * Nothing in this file may import a command module statically.
 */
import type { ParsedArgs } from '../argv.js';
import { withInterrupts } from '../interrupt.js';
import type { CliIO } from '../io.js';
import type { Outcome } from '../outcome.js';

/** Runs one command line whose first word is the command's name. */
export type CommandRunner = (args: ParsedArgs, io: CliIO) => Promise<Outcome>;

/** A command that talks to one server (the target options pick it). */
const server: CommandRunner = async (args, io) =>
  (await import('./run-server-command.js')).runServerCommand(args.words[0]!, args, io);

export const COMMANDS: Readonly<Record<string, CommandRunner>> = {
  info: server,
  tools: server,
  call: server,
  resources: server,
  templates: server,
  read: server,
  prompts: server,
  prompt: server,
  complete: server,
  ping: server,
  skills: server,
  // A login waits for the browser: a signal abandons it (the loopback receiver is closed).
  auth: (args, io) => withInterrupts(io, async (i) => (await import('./auth-commands.js')).authCommand(args, io, i)),
  // They run a manager's servers: a signal disconnects them all before the exit.
  servers: (args, io) =>
    withInterrupts(io, async (i) => (await import('./config-commands.js')).serversCommand(args, io, i)),
  repl: (args, io) => withInterrupts(io, async (i) => (await import('./repl.js')).replCommand(args, io, i)),
  config: async (args, io) => (await import('./config-commands.js')).configCommand(args, io),
  proxy: async (args, io) => (await import('./traffic-commands.js')).proxyCommand(args, io),
  trace: async (args, io) => (await import('./traffic-commands.js')).traceCommand(args, io),
  replay: async (args, io) => (await import('./replay.js')).replayCommand(args, io),
  doctor: async (args, io) => (await import('./doctor.js')).doctorCommand(args, io),
  completion: async (args, io) => (await import('./completion-command.js')).completionCommand(args, io),
  registry: async (args, io) => (await import('./registry-commands.js')).registryCommand(args, io),
  // The preview runs until Ctrl-C: a signal closes its sites and the session (inside the command).
  app: async (args, io) => (await import('./app-command.js')).appCommand(args, io),
  // The gateway serves until a signal (or stdin's end): it closes every upstream itself.
  gateway: async (args, io) => (await import('./gateway-command.js')).gatewayCommand(args, io),
  'emit-ts': async (args, io) => (await import('./emit-ts.js')).emitTsCommand(args, io),
};

/** The command named `name`, if there is one (never an `Object.prototype` member). */
export function commandNamed(name: string): CommandRunner | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}
