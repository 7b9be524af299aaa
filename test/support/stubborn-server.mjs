#!/usr/bin/env node
// A legacy MCP server (2025-06-18, no SDK) that outlives its client unless it is killed: it
// ignores stdin EOF, traps SIGTERM and SIGHUP (saying so on stderr), and only SIGKILL ends it.
// `--pid-file <file>` writes its pid there once it reads stdin. Tools: `wait` (never answered),
// `echo` {text}. For tests that prove the client stops it, whatever happens to the client's terminal.
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const at = process.argv.indexOf('--pid-file');
if (at !== -1) writeFileSync(process.argv[at + 1], String(process.pid));
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => process.stderr.write(`ignoring ${signal}\n`));
// Nothing ends it but SIGKILL: not stdin EOF, not an empty event loop, not a write to a pipe
// whose reader died (EPIPE would otherwise be an uncaught error).
setInterval(() => {}, 60_000);
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});

const send = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (line.trim() === '') return;
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return;
  if (method === 'initialize')
    return send({
      jsonrpc: '2.0',
      id,
      result: {
        protocolVersion: '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'stubborn', version: '1.0.0' },
      },
    });
  if (method === 'ping') return send({ jsonrpc: '2.0', id, result: {} });
  if (method === 'tools/list')
    return send({
      jsonrpc: '2.0',
      id,
      result: { tools: ['wait', 'echo'].map((name) => ({ name, inputSchema: { type: 'object' } })) },
    });
  if (method === 'tools/call' && params?.name === 'echo')
    return send({
      jsonrpc: '2.0',
      id,
      result: { content: [{ type: 'text', text: String(params.arguments?.text ?? '') }] },
    });
  if (method === 'tools/call' && params?.name === 'wait') return undefined;
  return send({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
});
rl.on('close', () => process.stderr.write('ignoring stdin EOF\n'));
