#!/usr/bin/env node
// A legacy server (2025-06-18) that breaks the protocol on purpose, for `mcpwire trace check`
// tests. No SDK: NDJSON over stdio. It answers initialize correctly, then:
//   tools/list        a tool whose inputSchema.type is "string" (must be "object")
//   tools/call        a text block without its text, and a nextCursor-like field that is a number
//   resources/list    nextCursor 42 (must be a string)
//   prompts/get       a message with role "system"
//   ping              answered, then a `notifications/elicitation/complete` (2025-06-18 has none)
// and sends `sampling/createMessage` after initialized although the client declared no sampling.
// Exits 0 on stdin EOF.
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  const { id, method } = message;
  switch (method) {
    case 'initialize':
      return send({
        id,
        result: {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {}, resources: {}, prompts: {} },
          serverInfo: { name: 'lying-server', version: '0.0.1' },
        },
      });
    case 'notifications/initialized':
      return send({ id: 900, method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } });
    case 'tools/list':
      return send({ id, result: { tools: [{ name: 'echo', inputSchema: { type: 'string' } }] } });
    case 'tools/call':
      return send({ id, result: { content: [{ type: 'text' }] } });
    case 'resources/list':
      return send({ id, result: { resources: [], nextCursor: 42 } });
    case 'prompts/get':
      return send({ id, result: { messages: [{ role: 'system', content: { type: 'text', text: 'hi' } }] } });
    case 'ping':
      send({ id, result: {} });
      return send({ method: 'notifications/elicitation/complete', params: { elicitationId: 'x' } });
    default:
      if (id !== undefined && method !== undefined) send({ id, error: { code: -32601, message: 'Method not found' } });
  }
});
rl.on('close', () => process.exit(0));
