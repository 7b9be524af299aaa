// The `npx` shape: a wrapper that runs the real server as its child (same process group, the
// wrapper's stdin/stdout/stderr passed through) and exits as soon as that child exits. The server
// starts a helper in the same group that ignores stdin EOF and ignores SIGTERM — or, with
// `--signals <file>`, appends `SIGTERM` to that file on SIGTERM and then exits — prints
// `helper <pid>` on stderr once it runs, and exits on stdin EOF. So after stdin EOF the group's leader (this wrapper)
// is gone while a member of its group lives on.
import { spawn } from 'node:child_process';

const at = process.argv.indexOf('--signals');
const signals = at === -1 ? '' : process.argv[at + 1];

const HELPER = `
const { appendFileSync } = require('node:fs');
const file = ${JSON.stringify(signals)};
process.on('SIGTERM', () => { if (file) { appendFileSync(file, 'SIGTERM\\n'); process.exit(0); } });
process.stdout.write('up\\n');
setInterval(() => {}, 1000);
`;
const SERVER = `
const { spawn } = require('node:child_process');
const helper = spawn(process.execPath, ['-e', ${JSON.stringify(HELPER)}], { stdio: ['ignore', 'pipe', 'ignore'] });
helper.stdout.once('data', () => {
  process.stderr.write('helper ' + helper.pid + '\\n');
  helper.stdout.destroy();
  helper.unref();
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

const child = spawn(process.execPath, ['-e', SERVER], { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
