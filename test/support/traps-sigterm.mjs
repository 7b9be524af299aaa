#!/usr/bin/env node
// A stdio "server" that says `ready` on stderr, and on SIGTERM says `got SIGTERM` and exits 7:
// proof that a signal reached it (and which exit code the proxy must hand on).
process.on('SIGTERM', () => {
  process.stderr.write('got SIGTERM\n');
  process.exit(7);
});
process.stdin.resume();
process.stderr.write('ready\n');
