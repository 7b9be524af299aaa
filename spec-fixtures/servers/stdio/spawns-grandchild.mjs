// Starts a long-lived grandchild node process (in the server's process group), prints `grandchild <pid>`
// on stderr once the grandchild is running, and ignores stdin EOF, as some servers' helpers do. The
// grandchild traps SIGTERM, so only the SIGKILL a client sends to the whole group stops it.
import { spawn } from 'node:child_process';

const child = spawn(
  process.execPath,
  ['-e', "process.on('SIGTERM', () => {}); process.stdout.write('up\\n'); setInterval(() => {}, 1000)"],
  {
    stdio: ['ignore', 'pipe', 'ignore'],
  },
);
child.stdout.once('data', () => {
  process.stderr.write(`grandchild ${child.pid}\n`);
  // Let go of the grandchild's stdout, so only the signals decide when it ends.
  child.stdout.destroy();
});
process.stdin.resume();
setInterval(() => {}, 1000);
