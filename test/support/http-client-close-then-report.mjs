/**
 * A client in a process of its own, for tests that must prove `close()` leaves nothing behind:
 * it connects to the URL with the built library (`dist/`, as a user would), lists the tools,
 * closes, lets the event loop turn once (handles closed by the close go away in that turn's
 * close phase), prints the timers and sockets still keeping the process alive as one JSON line,
 * and then simply returns: the process must exit by itself.
 *
 * usage: node test/support/http-client-close-then-report.mjs <url> <http|sse>
 */
import { McpClient } from '../../dist/index.js';

const [url, transport] = process.argv.slice(2);
if (!url || (transport !== 'http' && transport !== 'sse'))
  throw new Error('usage: http-client-close-then-report.mjs <url> <http|sse>');
const client = await McpClient.connect({ url, transport }, { name: 'child' });
const tools = await client.listTools();
await client.close();
await new Promise((resolve) => setImmediate(resolve));
const left = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout' || kind.startsWith('TCP'));
process.stdout.write(`${JSON.stringify({ tools: tools.map((t) => t.name), left })}\n`);
