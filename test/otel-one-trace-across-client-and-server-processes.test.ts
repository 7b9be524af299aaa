/**
 * One trace across processes: an agent process on mcpwire's client and a server process on the
 * kit, each with the real OpenTelemetry Node SDK exporting OTLP/HTTP JSON to a receiver in this
 * test, and no tracing code beyond `instrument()`. The agent's own span is the parent of its
 * CLIENT `tools/call echo` span, whose context rides in `params._meta` to the server, whose
 * SERVER span is its child. Over stdio and Streamable HTTP, in both eras (needs `npm run build`).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ATTR } from '../src/util/mcp-semconv.js';
import { otelKitOverHttp } from './support/http-servers.js';
import { attributesOf, startOtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js';

const SUPPORT = path.dirname(fileURLToPath(import.meta.url));
const AGENT = path.join(SUPPORT, 'support/otel-agent.mjs');
const SERVER = path.join(SUPPORT, 'support/otel-kit-server.mjs');
const run = promisify(execFile);

const CLIENT_KIND = 3;
const SERVER_KIND = 2;

/** Runs the agent against `target`; resolves with what it printed (bounded: 60 s). */
async function agent(target: unknown, era: string, otlpUrl: string): Promise<{ protocolVersion: string }> {
  const { stdout } = await run(process.execPath, [AGENT, JSON.stringify(target), era], {
    env: { ...process.env, OTLP_URL: otlpUrl },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as { protocolVersion: string };
}

function serviceOf(span: ReceivedSpan): unknown {
  return attributesOf(span.resource)['service.name'];
}

describe('one trace across client and server processes', () => {
  for (const transport of ['stdio', 'http'] as const) {
    for (const era of ['legacy', 'modern'] as const) {
      it(`joins the agent's span, its CLIENT span and the server's SERVER span (${transport}, ${era})`, async () => {
        const receiver = await startOtlpReceiver();
        let target: unknown;
        let stop = (): Promise<void> => Promise.resolve();
        if (transport === 'stdio') {
          target = { command: process.execPath, args: [SERVER], env: { OTLP_URL: receiver.url } };
        } else {
          const server = await otelKitOverHttp(receiver.url);
          stop = () => server.stop();
          target = { url: server.url };
        }
        let protocolVersion: string;
        try {
          ({ protocolVersion } = await agent(target, era, receiver.url));
        } finally {
          await stop(); // the HTTP server flushes its spans on SIGTERM
        }
        const isCall = (kind: number) => (s: ReceivedSpan) => s.name === 'tools/call echo' && s.kind === kind;
        const spans = await receiver.waitForSpans(
          (all) =>
            all.some((s) => s.name === 'agent turn') && all.some(isCall(CLIENT_KIND)) && all.some(isCall(SERVER_KIND)),
        );
        const turn = spans.find((s) => s.name === 'agent turn')!;
        const sent = spans.find(isCall(CLIENT_KIND))!;
        const handled = spans.find(isCall(SERVER_KIND))!;
        expect(serviceOf(turn)).toBe('agent');
        expect(serviceOf(sent)).toBe('agent');
        expect(serviceOf(handled)).toBe('kit-server');
        expect(sent.traceId).toBe(turn.traceId);
        expect(sent.parentSpanId).toBe(turn.spanId);
        expect(handled.traceId).toBe(turn.traceId);
        expect(handled.parentSpanId).toBe(sent.spanId);

        const sentAttributes = attributesOf(sent.attributes);
        const handledAttributes = attributesOf(handled.attributes);
        for (const attributes of [sentAttributes, handledAttributes]) {
          expect(attributes[ATTR.methodName]).toBe('tools/call');
          expect(attributes[ATTR.toolName]).toBe('echo');
          expect(attributes[ATTR.operationName]).toBe('execute_tool');
          expect(attributes[ATTR.protocolVersion]).toBe(protocolVersion);
          expect(attributes[ATTR.networkTransport]).toBe(transport === 'stdio' ? 'pipe' : 'tcp');
        }
        expect(protocolVersion === '2026-07-28').toBe(era === 'modern');
        expect(sentAttributes[ATTR.requestId]).toBe(handledAttributes[ATTR.requestId]);
        if (transport === 'http') {
          expect(sentAttributes[ATTR.serverAddress]).toBe('127.0.0.1');
          expect(Number(sentAttributes[ATTR.serverPort])).toBeGreaterThan(0);
          expect(handledAttributes[ATTR.clientAddress]).toBe('127.0.0.1');
          // A session id only where the revision has sessions, the same on both sides.
          if (era === 'legacy') {
            expect(sentAttributes[ATTR.sessionId]).toEqual(expect.any(String));
            expect(handledAttributes[ATTR.sessionId]).toBe(sentAttributes[ATTR.sessionId]);
          } else expect(sentAttributes[ATTR.sessionId]).toBeUndefined();
        }
      });
    }
  }
});
