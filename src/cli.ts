#!/usr/bin/env node
/**
 * The `mcpwire` executable. Everything happens in `cli/main.ts`; this file binds it to the
 * process and ends it as the run says: once stdout has drained, with the exit code, or (the
 * proxy, whose server was killed) by the same signal. It loads only what every run needs: each
 * command's code loads on first use (`cli/commands/index.ts`).
 */
import { main } from './cli/main.js';
import { processIO } from './cli/io.js';

const ended = await main(process.argv.slice(2), processIO());
process.exitCode = ended.code;
const signal = ended.signal;
// Whatever a server left behind (a keep-alive socket, a stdin reader) must not keep us alive.
process.stdout.write('', () => {
  if (!signal) process.exit(ended.code);
  void import('./inspect/proxy/exit-like-server.js').then(({ exitLikeServer }) =>
    exitLikeServer({ exitCode: null, signal }),
  );
});
