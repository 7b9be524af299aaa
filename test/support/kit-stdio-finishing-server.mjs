#!/usr/bin/env node
// A kit server (`mcpwire/server` from dist/: run `npm run build` first) on its own stdin/stdout
// whose calls finish only when the test says so, for the stdio shutdown rules. Tools:
//   hold {name}   writes `started <name>` on stderr, then waits for SIGUSR2 (one signal releases
//                 every held call) and answers `released <name>`; if aborted first, writes
//                 `aborted <name>` on stderr and answers nothing useful
//   ask           asks the client for its roots (legacy server→client request) and answers what came
// argv[2]: the session's inputEndGraceMs (default: the kit's). Writes `input ended` on stderr when
// the transport saw the end of stdin, `exiting` once the session closed; the process then ends by
// itself.
import { McpServer, StdioServerTransport } from 'mcpwire/server';

const waiting = new Set();
process.on('SIGUSR2', () => {
  for (const release of waiting) release();
  waiting.clear();
});
const server = new McpServer({ name: 'finishing', version: '0.0.1', logger: () => undefined });
server.registerTool({
  name: 'hold',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  handler: async ({ name }, context) => {
    process.stderr.write(`started ${name}\n`);
    await new Promise((resolve) => {
      waiting.add(resolve);
      context.signal.addEventListener(
        'abort',
        () => {
          waiting.delete(resolve);
          process.stderr.write(`aborted ${name}\n`);
          resolve();
        },
        { once: true },
      );
    });
    return { content: [{ type: 'text', text: `released ${name}` }] };
  },
});
server.registerTool({
  name: 'ask',
  inputSchema: { type: 'object' },
  handler: async (_args, context) => {
    process.stderr.write('started ask\n');
    try {
      const roots = await context.listRoots();
      return { content: [{ type: 'text', text: JSON.stringify(roots) }] };
    } catch (error) {
      return { content: [{ type: 'text', text: `no roots: ${error.code}` }], isError: true };
    }
  },
});
const grace = process.argv[2] === undefined ? {} : { inputEndGraceMs: Number(process.argv[2]) };
const transport = new StdioServerTransport();
void transport.inputEnded?.then(() => process.stderr.write('input ended\n'));
const session = server.connect(transport, grace);
await session.closed;
process.stderr.write('exiting\n');
