#!/usr/bin/env node
// An official SDK v1 (@modelcontextprotocol/sdk 1.x) server over Streamable HTTP WITH sessions, on
// 127.0.0.1 at a free port; prints {"url":"http://127.0.0.1:PORT/mcp"} on stdout once listening.
// The gateway tests' legacy upstream: tools that report progress, wait to be cancelled, elicit,
// sample, list roots, one whose name holds the `__` separator, one whose description changes;
// a prompt and a template with completion; a listed resource.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { z } from 'zod';

const state = { cancelled: 0, description: 'Says the text back.' };
const servers = new Set();

function makeServer() {
  const server = new McpServer({ name: 'sdk-v1-upstream', version: '1.0.0' });
  servers.add(server);
  server.registerTool(
    'echo',
    { description: 'Says the text back.', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool('a__b', { description: 'A tool whose name holds the separator.', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'a__b ran' }],
  }));
  server.registerTool(
    'steps',
    { description: 'Reports progress for each step.', inputSchema: { count: z.number().int() } },
    async ({ count }, extra) => {
      const token = extra._meta?.progressToken;
      for (let i = 1; i <= count; i++)
        if (token !== undefined)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: i, total: count, message: `step ${i}` },
          });
      return { content: [{ type: 'text', text: `${count} steps` }] };
    },
  );
  server.registerTool(
    'wait_for_cancel',
    { description: 'Runs until cancelled.', inputSchema: {} },
    (_args, extra) =>
      new Promise((resolve) => {
        extra.signal.addEventListener('abort', () => {
          state.cancelled += 1;
          resolve({ content: [{ type: 'text', text: 'cancelled' }] });
        });
      }),
  );
  server.registerTool(
    'cancelled_count',
    { description: 'How many calls were cancelled.', inputSchema: {} },
    async () => ({
      content: [{ type: 'text', text: String(state.cancelled) }],
    }),
  );
  server.registerTool(
    'ask_user',
    { description: 'Asks the user a question.', inputSchema: { question: z.string() } },
    async ({ question }) => {
      const answer = await server.server.elicitInput({
        message: question,
        requestedSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
      });
      return { content: [{ type: 'text', text: `${answer.action}:${answer.content?.answer ?? ''}` }] };
    },
  );
  server.registerTool(
    'ask_model',
    { description: "Asks the client's model.", inputSchema: { prompt: z.string() } },
    async ({ prompt }) => {
      const result = await server.server.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: 10,
      });
      return { content: [{ type: 'text', text: `model said: ${result.content.text}` }] };
    },
  );
  server.registerTool('client_roots', { description: "Lists the client's roots.", inputSchema: {} }, async () => {
    const { roots } = await server.server.listRoots();
    return { content: [{ type: 'text', text: roots.map((r) => r.uri).join(',') }] };
  });
  const described = server.registerTool('described', { description: state.description, inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'described ran' }],
  }));
  server.registerTool(
    'rewrite_description',
    {
      description: 'Changes the description of "described" (list_changed follows).',
      inputSchema: { text: z.string() },
    },
    async ({ text }) => {
      state.description = text;
      for (const other of servers) other.__described?.update({ description: text });
      return { content: [{ type: 'text', text: 'ok' }] };
    },
  );
  server.__described = described;
  server.registerTool('link_note', { description: 'Links a note.', inputSchema: {} }, async () => ({
    content: [{ type: 'resource_link', uri: 'note://two', name: 'two' }],
  }));
  server.registerPrompt(
    'greet',
    {
      description: 'Greets someone.',
      argsSchema: {
        name: completable(z.string(), (value) => ['alice', 'albert', 'bob'].filter((n) => n.startsWith(value))),
      },
    },
    ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}!` } }] }),
  );
  server.registerResource('one', 'note://one', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, text: 'note one' }],
  }));
  server.registerResource(
    'notes',
    new ResourceTemplate('note://{id}', {
      list: undefined,
      complete: { id: (value) => ['one', 'two', 'three'].filter((id) => id.startsWith(value)) },
    }),
    { mimeType: 'text/plain' },
    async (uri, { id }) => ({ contents: [{ uri: uri.href, text: `note ${id}` }] }),
  );
  return server;
}

const transports = new Map();
const http = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
  const id = req.headers['mcp-session-id'];
  let transport = typeof id === 'string' ? transports.get(id) : undefined;
  if (!transport) {
    if (req.method !== 'POST' || body?.method !== 'initialize') {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return;
    }
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => transports.set(sid, transport),
    });
    const server = makeServer();
    transport.onclose = () => {
      if (transport.sessionId) transports.delete(transport.sessionId);
      servers.delete(server);
    };
    await server.connect(transport);
  }
  await transport.handleRequest(req, res, body);
});
http.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${http.address().port}/mcp` })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
