// The benchmark servers' shared brain: hand-written legacy (2025-11-25) JSON-RPC, no SDK and no
// validation, so the clients — not the server — dominate every measurement.
// Methods: initialize, ping, tools/list (N tools), tools/call of
//   echo {text}  → one text block holding `text`
//   blob {bytes} → one text block of exactly `bytes` ASCII bytes
// Notifications get '' (nothing to answer); anything else gets -32601.

const toolsArg = process.argv.indexOf('--tools');
const count = toolsArg === -1 ? 100 : Number(process.argv[toolsArg + 1]);
const tools = [
  {
    name: 'echo',
    description: 'Echoes text',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  {
    name: 'blob',
    description: 'Returns one text block of N bytes',
    inputSchema: { type: 'object', properties: { bytes: { type: 'integer' } }, required: ['bytes'] },
  },
];
for (let i = tools.length; i < count; i++) {
  tools.push({
    name: `tool_${i}`,
    description: `Filler tool number ${i} with a description of a realistic length for a listing`,
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'string', description: 'first' }, b: { type: 'number', description: 'second' } },
      required: ['a'],
    },
  });
}

// Results that never change are serialized once; only the id is spliced in per response.
const INIT = JSON.stringify({
  protocolVersion: '2025-11-25',
  capabilities: { tools: { listChanged: false } },
  serverInfo: { name: 'bench-server', version: '1.0.0' },
});
const TOOLS = JSON.stringify({ tools });
const blobs = new Map();
const blobResult = (n) => {
  let r = blobs.get(n);
  if (r === undefined) blobs.set(n, (r = JSON.stringify({ content: [{ type: 'text', text: 'x'.repeat(n) }] })));
  return r;
};

const reply = (id, resultJson) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultJson}}\n`;

/** The response line (with its newline) for one request line; '' for a notification. */
export function handle(line) {
  if (line.length === 0) return '';
  const m = JSON.parse(line);
  if (m.id === undefined || m.method === undefined) return '';
  switch (m.method) {
    case 'initialize':
      return reply(m.id, INIT);
    case 'ping':
      return reply(m.id, '{}');
    case 'tools/list':
      return reply(m.id, TOOLS);
    case 'tools/call': {
      const args = m.params?.arguments ?? {};
      if (m.params?.name === 'blob') return reply(m.id, blobResult(Number(args.bytes ?? 1024)));
      return reply(m.id, `{"content":[{"type":"text","text":${JSON.stringify(String(args.text))}}]}`);
    }
    default:
      return `{"jsonrpc":"2.0","id":${JSON.stringify(m.id)},"error":{"code":-32601,"message":"Method not found: ${m.method}"}}\n`;
  }
}
