// A minimal legacy server (2025-06-18, no SDK) whose one tool, `env`, answers with the server's
// environment as JSON text, so a test can see what a client's `env` became. stdin EOF ends it.
import { createInterface } from 'node:readline';

const answer = (id, result) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (line.trim() === '') return;
  const { id, method } = JSON.parse(line);
  if (id === undefined) return;
  if (method === 'initialize')
    return answer(id, {
      protocolVersion: '2025-06-18',
      capabilities: { tools: {} },
      serverInfo: { name: 'reports-env', version: '1.0.0' },
    });
  if (method === 'tools/list') return answer(id, { tools: [{ name: 'env', inputSchema: { type: 'object' } }] });
  if (method === 'tools/call') return answer(id, { content: [{ type: 'text', text: JSON.stringify(process.env) }] });
  process.stdout.write(
    `${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } })}\n`,
  );
});
rl.on('close', () => process.exit(0));
