#!/usr/bin/env node
// A hand-written MCP server over stdio NDJSON (2025-11-25, no SDK, no kit) that lists whatever
// tools the JSON file named by its first argument holds, as they are: names and schemas a real
// server library would refuse (spaces, `*/`, `__proto__`, generator keywords) reach the client
// untouched. `tools/call` of a listed tool answers with the call it got, as text and as
// `structuredContent` `{ tool, arguments }`; a call of a tool named `fail*` answers `isError`.
// Exits when stdin ends.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const tools = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

function answer(method, params) {
  switch (method) {
    case 'initialize':
      return {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'listed-tools', version: '0.0.1' },
      };
    case 'ping':
      return {};
    case 'tools/list':
      return { tools };
    case 'tools/call': {
      if (!tools.some((tool) => tool.name === params.name)) return { unknownTool: true };
      const call = { tool: params.name, arguments: params.arguments ?? {} };
      return {
        content: [{ type: 'text', text: JSON.stringify(call) }],
        structuredContent: call,
        ...(params.name.startsWith('fail') ? { isError: true } : {}),
      };
    }
    default:
      return undefined;
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const message = JSON.parse(line);
  if (message.id === undefined) continue;
  const result = answer(message.method, message.params ?? {});
  if (result?.unknownTool) send({ id: message.id, error: { code: -32602, message: 'unknown tool' } });
  else if (result === undefined)
    send({ id: message.id, error: { code: -32601, message: `no ${message.method} here` } });
  else send({ id: message.id, result });
}
