// Starts a grandchild in a session of its own (`detached: true`: setsid, so neither the server's
// process group nor its session), the way a server launches a browser; prints `detached <pid>` on
// stderr once it runs. The grandchild ignores SIGTERM unless started with `--obeys-sigterm`. The
// server itself exits on stdin EOF, so after a polite close the grandchild's parent link to it is gone.
import { spawn } from 'node:child_process';

const obeys = process.argv.includes('--obeys-sigterm');
const code = `${obeys ? '' : "process.on('SIGTERM', () => {});"} process.stdout.write('up\\n'); setInterval(() => {}, 1000)`;
const child = spawn(process.execPath, ['-e', code], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
child.stdout.once('data', () => {
  process.stderr.write(`detached ${child.pid}\n`);
  child.stdout.destroy();
  child.unref();
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
