// Starts a long-lived grandchild (same process group), prints `grandchild <pid>` on stderr,
// and ignores stdin EOF, as some servers' helper processes do.
import { spawn } from 'node:child_process';
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
process.stderr.write(`grandchild ${child.pid}\n`);
process.stdin.resume();
setInterval(() => {}, 1000);
