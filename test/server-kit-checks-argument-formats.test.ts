/**
 * The kit checks the common JSON Schema formats of tool arguments (`src/protocol/schema-formats.ts`:
 * date, time, date-time, email, hostname, ipv4, ipv6, uri, uri-reference, uuid): an argument out
 * of its format is refused as invalid input before the handler runs, naming the argument; one in
 * format reaches the handler.
 */
import { expect, it } from 'vitest';
import { McpServer } from '../src/server/index.js';
import { connectKitClient } from './support/kit-memory.js';

it('refuses arguments out of their format and passes those in format', async () => {
  const server = new McpServer({ name: 'formats', version: '1', logger: () => undefined });
  const seen: unknown[] = [];
  server.registerTool<{ email: string; site: string; day: string }>({
    name: 'invite',
    inputSchema: {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        day: { type: 'string', format: 'date' },
      },
      required: ['email', 'site', 'day'],
    },
    handler: (args) => {
      seen.push(args);
      return { content: [{ type: 'text', text: 'invited' }] };
    },
  });
  const client = await connectKitClient(server, { era: 'legacy' });
  const refused = await client.callTool('invite', { email: 'ada at example', site: 'example.com', day: '2024-02-30' });
  expect(refused.isError).toBe(true);
  const text = JSON.stringify(refused.content);
  for (const path of ['/email', '/site', '/day']) expect(text).toContain(path);
  expect(seen).toEqual([]);
  const ok = await client.callTool('invite', {
    email: 'ada@example.com',
    site: 'https://example.com',
    day: '2024-02-29',
  });
  expect(ok.isError).toBeFalsy();
  expect(seen).toHaveLength(1);
});
