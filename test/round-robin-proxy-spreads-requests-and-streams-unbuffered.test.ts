/**
 * The round-robin proxy the scale-out tests put in front of their nodes
 * (`test/support/round-robin-proxy.ts`), over three real backend processes
 * (`test/support/nodes.ts` running `test/support/http-node.mjs`): requests go to the backends in
 * turn and are counted per backend; an SSE response passes through event by event (the second
 * event is written only after the client has read the first), and a request body is streamed
 * to the backend while its echo streams back.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startNodes } from './support/nodes.js';
import { startRoundRobinProxy } from './support/round-robin-proxy.js';
import { readText } from './support/stream-reader.js';

const HTTP_NODE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support/http-node.mjs');

async function threeBehindProxy() {
  const nodes = await startNodes(3, { script: HTTP_NODE, env: (i) => ({ NODE_NAME: `n${i}` }) });
  const proxy = await startRoundRobinProxy(nodes.urls());
  return { nodes, proxy };
}

async function who(url: string): Promise<string> {
  const response = await fetch(`${url}/who`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { name: string }).name;
}

describe('the round-robin proxy', () => {
  it('sends each request to the next backend in turn and counts what each served', async () => {
    const { proxy } = await threeBehindProxy();
    const names: string[] = [];
    for (let i = 0; i < 6; i++) names.push(await who(proxy.url));
    expect(names).toEqual(['n0', 'n1', 'n2', 'n0', 'n1', 'n2']);
    expect(proxy.backends.map((b) => b.served)).toEqual([2, 2, 2]);

    proxy.sendNextTo(2);
    expect([await who(proxy.url), await who(proxy.url)]).toEqual(['n2', 'n0']);
    expect(proxy.log.map((r) => r.backend)).toEqual([0, 1, 2, 0, 1, 2, 2, 0]);
    expect(
      proxy.log.every((r) => r.method === 'GET' && r.path === '/who' && r.status === 200 && r.end === 'done'),
    ).toBe(true);
  });

  it('passes an SSE stream through event by event, and streams a request body both ways', async () => {
    const { nodes, proxy } = await threeBehindProxy();
    const response = await fetch(`${proxy.url}/sse`);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = readText(response.body);
    await events.until((t) => t.includes('data: 1\n\n'), 'the first event');
    // The backend writes the next event only now: a buffering proxy would hold the first one back.
    const backend = nodes.nodes[proxy.log[0]!.backend]!;
    await fetch(`${backend.url}/release`, { method: 'POST' });
    await events.until((t) => t.includes('data: 2\n\n'), 'the second event');
    await fetch(`${backend.url}/release?end=1`, { method: 'POST' });
    expect(await events.end()).toEqual({ broken: false });
    expect(events.text).toBe('data: 1\n\ndata: 2\n\ndata: 3\n\n');

    let send!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (controller) => void (send = controller) });
    send.enqueue(new TextEncoder().encode('ping-1;'));
    const echo = await fetch(`${proxy.url}/echo`, { method: 'POST', body, duplex: 'half' });
    const echoed = readText(echo.body);
    await echoed.until((t) => t === 'ping-1;', 'the first chunk echoed while the request is still open');
    send.enqueue(new TextEncoder().encode('ping-2;'));
    await echoed.until((t) => t === 'ping-1;ping-2;', 'the second chunk echoed');
    send.close();
    expect(await echoed.end()).toEqual({ broken: false });
    expect(proxy.log.map((r) => r.end)).toEqual(['done', 'done']);
  });
});
