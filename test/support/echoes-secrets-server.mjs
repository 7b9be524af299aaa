#!/usr/bin/env node
// A careless legacy server (2025-06-18, no SDK) that repeats its credential wherever it can: the
// value of its API_TOKEN environment variable shows up in its error messages, error data, stdout
// junk and stderr. Tests use it to prove a host never passes such an echo on.
//
// Flags:
//   --refuse-initialize   answers `initialize` with -32000 "bad token Bearer <token>"
// Tools:
//   whoami   a JSON-RPC error -32000 "bad token Bearer <token>" with data { received: "Bearer <token>" }
//   junk     first a stdout line "auth=<token> (not JSON)", then the result "ok"
//   crash    writes "fatal: token <token> was revoked" on stderr, then exits 1
//   refused  a tool result with isError: "token <token> was refused", in text and structuredContent
// stdin EOF ends it.
import { createInterface } from 'node:readline';

const token = process.env.API_TOKEN ?? '(no API_TOKEN)';
const refuse = process.argv.includes('--refuse-initialize');
const send = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const answer = (id, result) => send({ jsonrpc: '2.0', id, result });
const fail = (id, message, data) =>
  send({ jsonrpc: '2.0', id, error: { code: -32000, message, ...(data === undefined ? {} : { data }) } });
const tools = ['whoami', 'junk', 'crash', 'refused'].map((name) => ({ name, inputSchema: { type: 'object' } }));

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (line.trim() === '') return;
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return;
  if (method === 'initialize') {
    if (refuse) return fail(id, `bad token Bearer ${token}`);
    return answer(id, {
      protocolVersion: '2025-06-18',
      capabilities: { tools: {} },
      serverInfo: { name: 'echoes-secrets', version: '1.0.0' },
    });
  }
  if (method === 'ping') return answer(id, {});
  if (method === 'tools/list') return answer(id, { tools });
  if (method !== 'tools/call')
    return send({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
  switch (params?.name) {
    case 'whoami':
      return fail(id, `bad token Bearer ${token}`, { received: `Bearer ${token}` });
    case 'junk':
      process.stdout.write(`auth=${token} (not JSON)\n`);
      return answer(id, { content: [{ type: 'text', text: 'ok' }] });
    case 'crash':
      process.stderr.write(`fatal: token ${token} was revoked\n`, () => process.exit(1));
      return undefined;
    case 'refused':
      return answer(id, {
        isError: true,
        content: [{ type: 'text', text: `token ${token} was refused` }],
        structuredContent: { error: `token ${token} was refused` },
      });
    default:
      return fail(id, 'unknown tool');
  }
});
rl.on('close', () => process.exit(0));
