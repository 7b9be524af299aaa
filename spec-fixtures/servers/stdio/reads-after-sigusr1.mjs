// An echo server (like echo.mjs: {result:{echo: params}} per request) that leaves its stdin
// unread until it gets SIGUSR1, so a client's writes fill the pipe and wait for it to drain.
// Prints `waiting for SIGUSR1` on stderr once the signal handler is installed; exits on stdin EOF.
import { createInterface } from 'node:readline';

process.once('SIGUSR1', () => {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on('line', (line) => {
    if (line.trim() === '') return;
    const msg = JSON.parse(line);
    if (msg.id === undefined) return;
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { echo: msg.params ?? null } })}\n`);
  });
  rl.on('close', () => process.exit(0));
});
process.stderr.write('waiting for SIGUSR1\n');
setInterval(() => {}, 1000);
