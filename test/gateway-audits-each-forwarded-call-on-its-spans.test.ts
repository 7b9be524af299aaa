/**
 * The gateway's audit, in one process with the real SDK in memory: a tool call, a prompt get and
 * a resource read through a gateway with a bearer check each put the upstream server, the
 * upstream's own name (or URI) and the token's subject on the gateway's SERVER span and the
 * server and subject on its upstream CLIENT span (the SERVER span's child), never in the
 * duration metrics; `mcpwire:gateway-forward` publishes each call's life once, with the error of
 * a read the upstream refused; and no span or event holds the token.
 */
import diagnostics from 'node:diagnostics_channel';
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../src/gateway/index.js';
import { MCP_CHANNELS } from '../src/observe/channels.js';
import type { McpGatewayForwardEvent } from '../src/observe/channel-events.js';
import { jwtBearer, McpServer } from '../src/server/index.js';
import { GATEWAY_ATTR, METRIC } from '../src/util/mcp-semconv.js';
import { connectClient } from './support/client.js';
import { serveGateway } from './support/gateway-upstreams.js';
import { startJwtIssuer, type JwtIssuer } from './support/jwt-issuer.js';
import { listenKit, type KitHttp } from './support/kit-http.js';
import { instrumented } from './support/otel-sdk.js';
import { eventually } from './support/wait.js';

const otel = instrumented();
const AUDIENCE = 'https://gateway.example/mcp';

let issuer: JwtIssuer;
let upstream: McpServer;
let kit: KitHttp;
let gateway: Gateway;
let served: { url: string; close(): Promise<void> };
/** Every event on `mcpwire:gateway-forward`, with the phase it was published in. */
const seen: Array<{ phase: string; event: McpGatewayForwardEvent }> = [];
const phases = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;
const listeners = Object.fromEntries(
  phases.map((phase) => [phase, (event: unknown) => seen.push({ phase, event: event as McpGatewayForwardEvent })]),
);

beforeAll(async () => {
  diagnostics.tracingChannel(MCP_CHANNELS.gatewayForward).subscribe(listeners as never);
  issuer = await startJwtIssuer();
  upstream = new McpServer({ name: 'audited', version: '1.0.0', logger: () => undefined });
  upstream.registerTool({
    name: 'echo',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    handler: ({ text }) => ({ content: [{ type: 'text', text: String(text) }] }),
  });
  upstream.registerPrompt({ name: 'greet', get: () => ({ messages: [] }) });
  upstream.registerResource({
    uri: 'kit://readme',
    name: 'readme',
    read: (uri) => [{ uri, mimeType: 'text/plain', text: 'the readme' }],
  });
  kit = await listenKit(upstream);
  gateway = createGateway({ manager: { servers: [{ name: 'kit', url: kit.url }] }, logger: () => undefined });
  await gateway.ready;
  served = await serveGateway(gateway, (url) => ({
    auth: {
      resource: url,
      authorizationServers: [issuer.issuer],
      verifyToken: jwtBearer({ issuer: issuer.issuer, jwksUrl: issuer.jwksUrl, audience: AUDIENCE }),
    },
  }));
}, 30_000);

afterAll(async () => {
  diagnostics.tracingChannel(MCP_CHANNELS.gatewayForward).unsubscribe(listeners as never);
  await served?.close();
  await gateway?.close();
  await kit?.close();
  await upstream?.close();
  await issuer?.close();
});

const span = (name: string, kind: SpanKind) =>
  eventually(() => otel.spans(name).find((s) => s.kind === kind), { what: `the ${SpanKind[kind]} span ${name}` });
const attributes = (s: ReadableSpan) => s.attributes;

describe('the gateway audits each forwarded call on its spans', () => {
  it('puts server, target and principal on the SERVER span and server and principal on its upstream CLIENT span', async () => {
    const token = await issuer.sign('carol', AUDIENCE);
    const client = await connectClient(
      { url: served.url, headers: { authorization: `Bearer ${token}` } },
      {
        era: 'legacy',
      },
    );
    await client.callTool('kit__echo', { text: 'audited' });
    await client.getPrompt('kit__greet');
    await client.readResource('mcpwire://kit/kit://readme');
    await expect(client.readResource('mcpwire://kit/kit://missing')).rejects.toThrow();

    const cases = [
      { downstream: 'tools/call kit__echo', upstream: 'tools/call echo', target: 'echo' },
      { downstream: 'prompts/get kit__greet', upstream: 'prompts/get greet', target: 'greet' },
      { downstream: 'resources/read', upstream: 'resources/read', target: 'kit://readme' },
    ];
    for (const { downstream, upstream: sent, target } of cases) {
      const handled = await eventually(
        () =>
          otel
            .spans(downstream)
            .find((s) => s.kind === SpanKind.SERVER && s.attributes[GATEWAY_ATTR.upstreamTarget] === target),
        { what: `the gateway's SERVER span ${downstream} of ${target}` },
      );
      expect(attributes(handled)).toMatchObject({
        [GATEWAY_ATTR.upstreamServer]: 'kit',
        [GATEWAY_ATTR.principal]: 'carol',
      });
      const forwarded = await eventually(
        () =>
          otel
            .spans(sent)
            .find((s) => s.kind === SpanKind.CLIENT && s.parentSpanContext?.spanId === handled.spanContext().spanId),
        { what: `the upstream CLIENT span ${sent} under the gateway's SERVER span` },
      );
      expect(attributes(forwarded)).toMatchObject({
        [GATEWAY_ATTR.upstreamServer]: 'kit',
        [GATEWAY_ATTR.principal]: 'carol',
      });
      expect(attributes(forwarded)[GATEWAY_ATTR.upstreamTarget]).toBeUndefined();
    }
    // The upstream's own SERVER span of the echo knows nothing of the gateway's audit.
    const echoed = await span('tools/call echo', SpanKind.SERVER);
    expect(Object.keys(echoed.attributes).filter((k) => k.startsWith('mcpwire.gateway') || k === 'enduser.id')).toEqual(
      [],
    );

    // Each forwarded call's life published once; the refused read with its error.
    const lives = new Map<McpGatewayForwardEvent, string[]>();
    for (const { phase, event } of seen) lives.set(event, [...(lives.get(event) ?? []), phase]);
    const byTarget = (target: string) => [...lives].filter(([event]) => event.target === target);
    for (const target of ['echo', 'greet', 'kit://readme']) {
      expect(byTarget(target).map(([, life]) => life)).toEqual([['start', 'end', 'asyncStart', 'asyncEnd']]);
      expect(byTarget(target)[0]![0]).toMatchObject({ server: 'kit', principal: 'carol' });
    }
    const [[missing, life]] = byTarget('kit://missing') as [[McpGatewayForwardEvent, string[]]];
    expect(life).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    expect(missing).toMatchObject({ server: 'kit', method: 'resources/read', principal: 'carol' });
    expect(missing.error).toBeInstanceOf(Error);

    // No token in any span or event; no principal in the duration metrics.
    const everything = JSON.stringify([
      otel.spans().map((s) => ({ attributes: s.attributes, events: s.events, links: s.links })),
      seen.map(({ event }) => ({ ...event, error: undefined })),
    ]);
    for (const part of [token, ...token.split('.')]) expect(everything).not.toContain(part);
    const points = await otel.histograms();
    expect(points.some((p) => p.name === METRIC.clientOperationDuration)).toBe(true);
    for (const point of points) expect(point.attributes[GATEWAY_ATTR.principal]).toBeUndefined();
  });
});
