/**
 * Many requests in flight at once are normal use of an HTTP transport, not a leak: every exchange
 * follows the transport's lifetime signal (close ends it), and that must not print Node's
 * `MaxListenersExceededWarning` into the host's stderr once more than ten are under way.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import {
  cleanUp,
  type HttpFixture,
  legacyServer,
  openSse,
  result,
  sse,
  startHttpFixture,
} from './support/http-fixture.js';

const IN_FLIGHT = 40;

let fixture: HttpFixture | undefined;
let client: McpClient | undefined;
const warnings: Error[] = [];
const onWarning = (warning: Error): void => {
  if (warning.name === 'MaxListenersExceededWarning') warnings.push(warning);
};

afterEach(async () => {
  process.off('warning', onWarning);
  warnings.length = 0;
  [client, fixture] = await cleanUp(client, fixture);
});

/** Pings `IN_FLIGHT` times at once; resolves when all are answered. */
async function pingAtOnce(connected: McpClient): Promise<void> {
  process.on('warning', onWarning);
  await Promise.all(Array.from({ length: IN_FLIGHT }, () => connected.ping()));
}

describe(`${IN_FLIGHT} requests in flight at once`, () => {
  it('over Streamable HTTP: all answered, no listener warning', async () => {
    fixture = await startHttpFixture(legacyServer());
    client = await McpClient.connect({ url: fixture.url, transport: 'http' }, { name: 'many' });
    await pingAtOnce(client);
    expect(fixture.seen('ping')).toHaveLength(IN_FLIGHT);
    expect(warnings.map((w) => w.message)).toEqual([]);
  });

  it('over HTTP+SSE (one POST each, answers on the stream): all answered, no listener warning', async () => {
    const streams: ServerResponse[] = [];
    const held: Array<() => void> = [];
    fixture = await startHttpFixture((seen, res) => {
      if (seen.method === 'GET') {
        openSse(res);
        sse(res, '/messages', { event: 'endpoint' });
        streams.push(res);
        return true;
      }
      // Every POST is answered only once all of them arrived, so all are in flight together.
      const posts = fixture!.seen('ping').length;
      const answer = (): void => {
        res.writeHead(202).end('Accepted');
        if (seen.rpc === 'initialize')
          sse(
            streams[0]!,
            result(seen, {
              protocolVersion: '2024-11-05',
              capabilities: {},
              serverInfo: { name: 'old', version: '0.1' },
            }),
            { event: 'message' },
          );
        else if (seen.rpc === 'ping') sse(streams[0]!, result(seen, {}), { event: 'message' });
      };
      if (seen.rpc !== 'ping') answer();
      else {
        held.push(answer);
        if (posts === IN_FLIGHT) for (const release of held.splice(0)) release();
      }
      return true;
    });
    client = await McpClient.connect({ url: fixture.url, transport: 'sse' }, { name: 'many' });
    await pingAtOnce(client);
    expect(fixture.seen('ping')).toHaveLength(IN_FLIGHT);
    expect(warnings.map((w) => w.message)).toEqual([]);
  });
});
