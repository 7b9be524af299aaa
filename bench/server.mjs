#!/usr/bin/env node
// The benchmark's stdio server: hand-written legacy (2025-11-25) NDJSON, no SDK and no
// validation, so the clients — not the server — dominate the measurements.
// Tools: echo {text}; blob {bytes} (one text block of that many bytes); plus --tools N filler tools.
import { createInterface } from 'node:readline';

const count = Number(process.argv[process.argv.indexOf('--tools') + 1] || 100);
const tools = [
  { name: 'echo', description: 'Echoes text', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
  { name: 'blob', description: 'Returns N bytes of text', inputSchema: { type: 'object', properties: { bytes: { type: 'integer' } } } },
];
for (let i = tools.length; i < count; i++) {
  tools.push({ name: `tool_${i}`, description: `Filler tool number ${i} with a realistic description length`, inputSchema: { type: 'object', properties: { a: { type: 'string', description: 'first' }, b: { type: 'number', description: 'second' } }, required: ['a'] } });
}
const blobs = new Map();
const out = (id, result) => process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${JSON.stringify(result)}}\n`);

createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  switch (m.method) {
    case 'initialize':
      return out(m.id, { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'bench-server', version: '1.0.0' } });
    case 'tools/list':
      return out(m.id, { tools });
    case 'ping':
      return out(m.id, {});
    case 'tools/call': {
      const args = m.params.arguments ?? {};
      if (m.params.name === 'blob') {
        const n = args.bytes ?? 1024;
        if (!blobs.has(n)) blobs.set(n, 'x'.repeat(n));
        return out(m.id, { content: [{ type: 'text', text: blobs.get(n) }] });
      }
      return out(m.id, { content: [{ type: 'text', text: String(args.text) }] });
    }
    default:
      return process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(m.id)},"error":{"code":-32601,"message":"Method not found"}}\n`);
  }
}).on('close', () => process.exit(0));
