/**
 * An HTTP client under Bun (or any runtime), from the built library (`dist/`, as a user imports
 * it): connects to the URL in each era (`auto`, which finds 2026-07-28 on the kit, then a legacy
 * session), lists, calls `echo`, closes, and prints one JSON line of what it saw. Any throw, a
 * close included, exits non-zero with the error on stderr.
 *
 * usage: bun test/support/bun-http-client.mjs <url>
 */
import { McpClient } from '../../dist/index.js';

const [url] = process.argv.slice(2);
if (!url) throw new Error('usage: bun-http-client.mjs <url>');
const seen = [];
for (const era of ['auto', 'legacy']) {
  const client = await McpClient.connect({ url }, { name: `bun-${era}`, era });
  const tools = await client.listTools();
  const answer = await client.callTool('echo', {});
  await client.close();
  seen.push({ era: client.era, tools: tools.map((t) => t.name), text: answer.content[0]?.text });
}
process.stdout.write(`${JSON.stringify({ runtime: process.versions.bun ? 'bun' : 'other', seen })}\n`);
