/**
 * What `mcpwire proxy -- <command>` does, reduced to the library calls, for tests that need the
 * proxy as its own process (signals, exit codes): run the server behind the proxy, append every
 * record to a JSONL file, then end the way the server ended.
 *
 * usage: node --import tsx test/support/stdio-proxy-cli.ts <trace.jsonl> -- <command> [args...]
 */
import { appendFileSync } from 'node:fs';
import { exitLikeServer } from '../../src/inspect/proxy/exit-like-server.js';
import { runStdioProxy } from '../../src/inspect/proxy/stdio-proxy.js';

const [traceFile, separator, command, ...args] = process.argv.slice(2);
if (!traceFile || separator !== '--' || !command)
  throw new Error('usage: stdio-proxy-cli.ts <trace.jsonl> -- <command> [args...]');
try {
  const result = await runStdioProxy({
    command,
    args,
    onRecord: (record) => appendFileSync(traceFile, `${JSON.stringify(record)}\n`),
  });
  exitLikeServer(result);
} catch (error) {
  process.stderr.write(`mcpwire proxy: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(127);
}
