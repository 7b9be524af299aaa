/**
 * A host that leaves without closing, run as `node --import tsx exits-without-closing-host.ts
 * <server.mjs> <stderr prefix>`: starts the server over stdio with mcpwire's own source, waits for
 * the stderr line `<prefix> <pid>`, prints that pid on stdout and calls process.exit(0) — so only
 * the transport's process 'exit' hook stands between the server's tree and an orphan.
 */
import { StdioTransport } from '../../src/transport/stdio/stdio.js';

const [server, prefix] = process.argv.slice(2);
const timer = setTimeout(() => {
  process.stderr.write(`no "${prefix}" line within 20 s\n`);
  process.exit(2);
}, 20_000);
await StdioTransport.spawn(
  { command: process.execPath, args: [server!] },
  {
    onStderr: (line) => {
      if (!line.startsWith(`${prefix} `)) return;
      clearTimeout(timer);
      process.stdout.write(`${line.slice(prefix!.length + 1)}\n`, () => process.exit(0));
    },
  },
);
