#!/usr/bin/env node
// A kit server (dist/, `npm run build` first) over its own stdin/stdout for the cross-cancel
// tests: `ask` waits for an elicitation, `wait` waits for its cancel, `pending` reports what the
// session's one engine holds. What the tools see is reported as JSON lines on stderr
// (`{"event":"wait-started"}`, `{"event":"wait-cancelled","code":…}`, `{"event":"elicit-failed","code":…}`).
import { McpServer, StdioServerTransport } from 'mcpwire/server';

const report = (record) => process.stderr.write(`${JSON.stringify(record)}\n`);
const server = new McpServer({ name: 'kit-cross-cancel', version: '0.0.1' });
server.registerTool({
  name: 'ask',
  inputSchema: { type: 'object' },
  handler: async (_args, context) => {
    try {
      const answer = await context.elicit({
        message: 'Your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      });
      return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
    } catch (error) {
      report({ event: 'elicit-failed', code: error.code });
      throw error;
    }
  },
});
server.registerTool({
  name: 'wait',
  inputSchema: { type: 'object' },
  handler: (_args, context) =>
    new Promise((resolve) => {
      report({ event: 'wait-started' });
      context.signal.addEventListener('abort', () => {
        report({ event: 'wait-cancelled', code: context.signal.reason?.code });
        resolve({ content: [{ type: 'text', text: 'cancelled' }] });
      });
    }),
});
server.registerTool({
  name: 'pending',
  inputSchema: { type: 'object' },
  // `inbound` counts this call too.
  handler: () => ({
    content: [
      {
        type: 'text',
        text: JSON.stringify({ inbound: session.connection.inboundCount, outbound: session.connection.pendingCount }),
      },
    ],
  }),
});
const session = server.connect(new StdioServerTransport());
await session.closed;
