/**
 * SSE keep-alives of the kit's HTTP handlers (`keepAliveMs`), on a real listener (127.0.0.1:0):
 * a legacy session's standalone GET stream and a 2026 `subscriptions/listen` stream that carry
 * nothing get a comment frame (`: `) each interval; mcpwire's client on such streams reports no
 * diagnostic and still hears `list_changed`; the fetch edge keeps its streams alive the same way;
 * `0` turns keep-alives off; `close()` leaves no timer behind.
 */
import { describe, expect, it } from 'vitest';
import type { TransportDiagnostic } from '../src/index.js';
import { createFetchHandler, McpServer } from '../src/server/index.js';
import { connectClient } from './support/client.js';
import { startKitHttp } from './support/kit-http.js';
import { changeFeedServer } from './support/kit-servers.js';
import { LegacyWire } from './support/legacy-wire.js';
import { readText } from './support/stream-reader.js';
import { until } from './support/wait.js';

const KEEP_ALIVE = ': \n\n';
const REVISION = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': REVISION, 'io.modelcontextprotocol/clientCapabilities': {} };

/** How many keep-alive comment frames `text` holds. */
const beats = (text: string): number => text.split(KEEP_ALIVE).length - 1;

const late = (server: McpServer): void =>
  void server.registerTool({ name: 'late', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });

/** The body of a 2026 listen POST for tools' list changes. */
const listenBody = (id: number): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: { _meta: META, notifications: { toolsListChanged: true } },
  });

const listenHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': REVISION,
  'mcp-method': 'subscriptions/listen',
};

describe('quiet SSE streams of the kit HTTP handler get keep-alives', () => {
  it('a legacy GET stream gets comment frames while nothing happens, then list_changed', async () => {
    const server = changeFeedServer('keep-alive-get');
    const kit = await startKitHttp(server, { keepAliveMs: 50 });
    const wire = await LegacyWire.open(kit.url);
    const get = await wire.stream(kit.url, 'GET');
    expect(get.status).toBe(200);
    await get.text.until((text) => beats(text) >= 2, 'two keep-alives on the GET stream');
    late(server);
    await get.text.until((text) => text.includes('notifications/tools/list_changed'), 'list_changed');
  });

  it('a listen stream gets comment frames while nothing happens, then list_changed', async () => {
    const server = changeFeedServer('keep-alive-listen');
    const kit = await startKitHttp(server, { keepAliveMs: 50 });
    const controller = new AbortController();
    const response = await fetch(kit.url, {
      method: 'POST',
      headers: listenHeaders,
      body: listenBody(1),
      signal: controller.signal,
    });
    const text = readText(response.body);
    try {
      await text.until((t) => beats(t) >= 2, 'two keep-alives on the listen stream');
      late(server);
      await text.until((t) => t.includes('notifications/tools/list_changed'), 'list_changed');
    } finally {
      controller.abort();
      await text.cancel();
    }
  });

  for (const era of ['legacy', 'modern'] as const)
    it(`mcpwire's ${era} client on kept-alive streams reports nothing and hears list_changed`, async () => {
      const server = changeFeedServer(`keep-alive-client-${era}`);
      const kit = await startKitHttp(server, { keepAliveMs: 50 });
      const diagnostics: TransportDiagnostic[] = [];
      const client = await connectClient({ url: kit.url }, { era, onDiagnostic: (d) => void diagnostics.push(d) });
      const streams = (): number => (era === 'legacy' ? kit.handler.openStreams : kit.handler.openListens);
      await until(() => streams() === 1, { what: "the client's stream to open" });
      // A raw listen opened after the client's stream: once it had two keep-alives, the client's
      // stream, quiet for longer, had them too.
      const controller = new AbortController();
      const clock = readText(
        (
          await fetch(kit.url, {
            method: 'POST',
            headers: listenHeaders,
            body: listenBody(9),
            signal: controller.signal,
          })
        ).body,
      );
      try {
        await clock.until((t) => beats(t) >= 2, 'two keep-alives on the raw stream');
      } finally {
        controller.abort();
        await clock.cancel();
      }
      let toolsChanged = 0;
      client.on('toolsChanged', () => toolsChanged++);
      client.on('diagnostic', (d) => void diagnostics.push(d));
      late(server);
      await until(() => toolsChanged >= 1, { what: 'the toolsChanged event' });
      expect(diagnostics).toEqual([]);
      expect((await client.listTools()).map((t) => t.name)).toContain('late');
    });

  it('the fetch edge keeps a quiet listen stream alive, and close() ends it and stops its timer', async () => {
    const server = changeFeedServer('keep-alive-fetch');
    const handler = createFetchHandler(server, { keepAliveMs: 50 });
    try {
      const response = await handler(
        new Request('http://127.0.0.1/mcp', { method: 'POST', headers: listenHeaders, body: listenBody(7) }),
      );
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const text = readText(response.body);
      await text.until((t) => beats(t) >= 2, 'two keep-alives on the fetch listen stream');
      await handler.close({ graceMs: 1_000 });
      expect(await text.end()).toEqual({ broken: false });
      const after = text.text.length;
      expect(handler.openListens).toBe(0);
      // A handler closed holds no keep-alive: a new handler's stream proves time went on.
      const probe = createFetchHandler(changeFeedServer('keep-alive-probe'), { keepAliveMs: 50 });
      const probeText = readText(
        (
          await probe(
            new Request('http://127.0.0.1/mcp', { method: 'POST', headers: listenHeaders, body: listenBody(8) }),
          )
        ).body,
      );
      await probeText.until((t) => beats(t) >= 2, 'two keep-alives on the probe stream');
      await probe.close({ graceMs: 1_000 });
      expect(text.text.length).toBe(after);
    } finally {
      await handler.close({ graceMs: 1_000 });
      await server.close();
    }
  });

  it('keepAliveMs 0 writes no keep-alive', async () => {
    const server = changeFeedServer('keep-alive-off');
    const kit = await startKitHttp(server, { keepAliveMs: 0 });
    const wire = await LegacyWire.open(kit.url);
    const get = await wire.stream(kit.url, 'GET');
    // A kept-alive stream on another handler shows time went on.
    const other = await startKitHttp(changeFeedServer('keep-alive-on'), { keepAliveMs: 50 });
    const otherWire = await LegacyWire.open(other.url);
    const otherGet = await otherWire.stream(other.url, 'GET');
    await otherGet.text.until((text) => beats(text) >= 2, 'two keep-alives on the other stream');
    late(server);
    await get.text.until((text) => text.includes('list_changed'), 'list_changed');
    expect(beats(get.text.text)).toBe(0);
  });

  it('refuses a negative keepAliveMs', () => {
    expect(() => createFetchHandler(changeFeedServer('keep-alive-bad'), { keepAliveMs: -1 })).toThrow(/keepAliveMs/);
  });
});
