// An NDJSON echo server (no SDK) with a noisy stdout: before each answer it prints a log line that
// is not JSON, a truncated JSON line, a blank line, a CRLF-terminated JSON line that is a
// notification, and, when OVERSIZE=<bytes> is set, one line of that many bytes of valid JSON (for
// a test that sets maxMessageBytes below it). Then it answers the request with {result:{echo: params}}
// using a CRLF line end. Exits on stdin EOF.
import { createInterface } from 'node:readline';

const oversize = Number(process.env.OVERSIZE ?? 0);
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  let out = 'Server starting... (this is not JSON)\n';
  out += '{"half": \n';
  out += '\n';
  out += `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `before ${msg.id}` } })}\r\n`;
  if (oversize > 0) out += `{"pad":"${'x'.repeat(Math.max(0, oversize - 10))}"}\n`;
  out += `${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { echo: msg.params ?? null } })}\r\n`;
  process.stdout.write(out);
});
rl.on('close', () => process.exit(0));
