// Minimal NDJSON echo server (no SDK): answers every request with {result:{echo: params}}, ignores
// notifications, and on stdin EOF writes `stdin closed` to stderr and exits with code 0.
// A request with method `env` is answered with {result:{echo: params, env: process.env}}, so tests can
// see the environment the server was given.
import { createInterface } from 'node:readline';

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (line.trim() === '') return;
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  const result = { echo: msg.params ?? null };
  if (msg.method === 'env') result.env = process.env;
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result })}\n`);
});
rl.on('close', () => {
  process.stderr.write('stdin closed\n');
  process.exit(0);
});
