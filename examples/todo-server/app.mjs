// The todo server as a value: the kit's McpServer with the seven tools over a repository, and one
// JSON log line on stderr per tool call (tool, user, outcome, duration; never task text).
import { McpServer } from 'mcpwire/server';
import { registerTodoTools } from './tools.mjs';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The default log sink: one JSON line on stderr (stdout is the wire on stdio). */
export function stderrLine(record) {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...record })}\n`);
}

/**
 * @param {{ name: string, version: string, slowMs?: number, state?: { leaseMs?: number } }} config
 * @param {import('./sqlite-store.mjs').TaskRepository} repository
 * @param {(record: object) => void} [log]
 * @param {object} [state] the kit's `state` option (state.mjs): the shared stores and secret
 */
export function createTodoServer(config, repository, log = stderrLine, state = undefined) {
  const leaseMs = config.state?.leaseMs;
  const server = new McpServer({
    name: config.name,
    version: config.version,
    ...(state ? { state } : {}),
    ...(leaseMs !== undefined ? { tasks: { leaseMs } } : {}),
    instructions: 'A task list per user. Every tool takes the user_id (a UUID) of the user whose tasks it works on.',
    logger: (record) => log(record),
    onToolCall: ({ tool, arguments: args, durationMs, isError, errorCode }) => {
      // Only ids are logged, and only when they are ids: titles and descriptions never are.
      const line = {
        level: isError ? 'warning' : 'info',
        msg: 'tool call',
        tool,
        outcome: isError ? (errorCode ?? 'error') : 'ok',
        duration_ms: Math.round(durationMs * 100) / 100,
      };
      if (UUID.test(args?.user_id ?? '')) line.user_id = args.user_id;
      if (UUID.test(args?.task_id ?? '')) line.task_id = args.task_id;
      log(line);
    },
  });
  registerTodoTools(server, repository, { slowMs: config.slowMs ?? 0 });
  return server;
}
