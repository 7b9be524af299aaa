/**
 * Under Bun with its default `idleTimeout` (10 s) left as is (`Bun.serve({ fetch })`): the kit's
 * SSE keep-alives (`keepAliveMs` 4000 here) keep a legacy session's quiet GET stream open past
 * Bun's idle limit, so the same stream still hears `list_changed` afterwards. The wait is for
 * keep-alive frames (three: longer than one idle period), never a sleep.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LegacyWire } from './support/legacy-wire.js';
import { groupAlive, startRuntime, type RuntimeServer } from './support/runtimes.js';

const KEEP_ALIVE = ': \n\n';
const beats = (text: string): number => text.split(KEEP_ALIVE).length - 1;

let served: RuntimeServer | undefined;
beforeAll(async () => {
  served = await startRuntime('bun', 'kit-app.mjs', { env: { KEEP_ALIVE_MS: '4000' } });
});
afterAll(async () => {
  await served?.stop();
});

it('keeps a quiet GET stream open across more than one Bun idle period, then tells it list_changed', async () => {
  const url = served!.url;
  const wire = await LegacyWire.open(url);
  const get = await wire.stream(url, 'GET');
  expect(get.status).toBe(200);
  // Three keep-alives: the stream stayed silent but for them for longer than Bun's 10 s.
  await get.text.until((text) => beats(text) >= 3, 'three keep-alives on the GET stream', 60_000);
  expect(await wire.call(url, 'tools/call', { name: 'register', arguments: { name: 'late' } })).toMatchObject({
    result: {},
  });
  await get.text.until((text) => text.includes('notifications/tools/list_changed'), 'list_changed on the same stream');
}, 90_000);

it('exits 0 on SIGTERM and leaves no process', async () => {
  const server = served!;
  expect(await server.stop(), server.output()).toEqual({ code: 0, signal: null });
  expect(groupAlive(server)).toBe(false);
});
