// Minimal NDJSON server: answers every request with {result:{echo: params}}; exits on stdin EOF.
// With JUNK=1 it also prints non-JSON lines and, if OVERSIZE=<bytes>, one oversized line before each answer.
import { createInterface } from 'node:readline';
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  if (process.env.JUNK === '1') {
    process.stdout.write('Server starting... (this is not JSON)\n');
    process.stdout.write('{"half": \n');
    if (process.env.OVERSIZE) process.stdout.write(`{"pad":"${'x'.repeat(Number(process.env.OVERSIZE))}"}\n`);
  }
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { echo: msg.params ?? null, env: msg.method === 'env' ? process.env : undefined } }) + '\n');
});
rl.on('close', () => process.exit(0));
