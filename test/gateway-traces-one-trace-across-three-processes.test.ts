/**
 * The gateway's audit trail in OpenTelemetry, one trace across three processes: an agent on
 * mcpwire's client (otel-agent.mjs), `mcpwire gateway` as a user runs it with the SDK loaded by
 * `node --import` (otel-register.mjs), and the kit server it starts over stdio
 * (otel-kit-server.mjs), each exporting OTLP/HTTP JSON to one receiver in this test. The agent's
 * CLIENT span is the parent of the gateway's SERVER span, that of the gateway's upstream CLIENT
 * span, that of the upstream's SERVER span; the gateway's spans say which server and tool the
 * call went to and who asked (the token's subject), and no span holds the token or a configured
 * secret. Both eras downstream (needs `node scripts/build.mjs`).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTR, GATEWAY_ATTR } from '../src/util/mcp-semconv.js';
import { ROOT, requireBuiltCli, startCli, type RunningCli } from './support/cli.js';
import { startJwtIssuer, type JwtIssuer } from './support/jwt-issuer.js';
import { attributesOf, listenOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js';
import { within } from './support/wait.js';

const AGENT = path.join(ROOT, 'test/support/otel-agent.mjs');
const REGISTER = path.join(ROOT, 'test/support/otel-register.mjs');
const UPSTREAM = path.join(ROOT, 'test/support/otel-kit-server.mjs');
const AUDIENCE = 'https://gateway.example/mcp';
/** A secret in the upstream's configured environment: it must reach no span. */
const SECRET = 'sk-audit-5f0c1e9a7b3d';
const SERVER_KIND = 2;
const CLIENT_KIND = 3;
const run = promisify(execFile);

let receiver: OtlpReceiver;
let issuer: JwtIssuer;
let gateway: RunningCli;
let url: string;
/** The gateway's HOME and working directory, shared by the file's tests. */
let dir: string | undefined;

beforeAll(async () => {
  requireBuiltCli();
  receiver = await listenOtlpReceiver();
  issuer = await startJwtIssuer();
  dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-gateway-otel-'));
  const config = path.join(dir, 'gateway.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        kit: { command: process.execPath, args: [UPSTREAM], env: { OTLP_URL: receiver.url, KIT_API_KEY: SECRET } },
      },
      gateway: { auth: { issuer: issuer.issuer, jwksUrl: issuer.jwksUrl, audience: AUDIENCE } },
    }),
  );
  gateway = startCli(['gateway', '--http', '127.0.0.1:0', '--config', config], {
    env: { HOME: dir, OTLP_URL: receiver.url, OTEL_SERVICE_NAME: 'gateway' },
    cwd: dir,
    nodeOptions: ['--import', REGISTER],
    timeoutMs: 60_000,
  });
  const out = await gateway.until('stdout', (s) => /listening on \S+\n/.test(s), 'the gateway to listen');
  url = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out)![1]!;
}, 60_000);

afterAll(async () => {
  if (gateway) {
    gateway.kill('SIGTERM');
    await within(gateway.done, { what: 'the gateway to exit on SIGTERM', timeoutMs: 10_000 });
  }
  await issuer?.close();
  await receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the agent against the gateway with `token`; resolves with what it printed (bounded: 60 s). */
async function agent(era: string, token: string): Promise<{ protocolVersion: string; traceId: string }> {
  const target = { url, headers: { authorization: `Bearer ${token}` } };
  const { stdout } = await run(process.execPath, [AGENT, JSON.stringify(target), era, 'kit__echo'], {
    env: { ...process.env, OTLP_URL: receiver.url },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as { protocolVersion: string; traceId: string };
}

const serviceOf = (span: ReceivedSpan) => attributesOf(span.resource)['service.name'];

/** The span of `service` in trace `traceId` named `name` of `kind`, if it arrived. */
function find(spans: ReceivedSpan[], traceId: string, service: string, name: string, kind: number) {
  return spans.find((s) => s.traceId === traceId && serviceOf(s) === service && s.name === name && s.kind === kind);
}

describe('the gateway in one trace across three processes', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`joins agent → gateway → upstream with the audit on the gateway's spans (${era} downstream)`, async () => {
      const token = await issuer.sign(`alice-${era}`, AUDIENCE);
      const { traceId } = await agent(era, token);
      const spansOf = (all: ReceivedSpan[]) => ({
        turn: find(all, traceId, 'agent', 'agent turn', 1),
        sent: find(all, traceId, 'agent', 'tools/call kit__echo', CLIENT_KIND),
        handled: find(all, traceId, 'gateway', 'tools/call kit__echo', SERVER_KIND),
        forwarded: find(all, traceId, 'gateway', 'tools/call echo', CLIENT_KIND),
        upstream: find(all, traceId, 'kit-server', 'tools/call echo', SERVER_KIND),
      });
      const all = await receiver.waitForSpans((spans) => Object.values(spansOf(spans)).every(Boolean), 20_000);
      const { turn, sent, handled, forwarded, upstream } = spansOf(all) as Record<string, ReceivedSpan>;

      expect(sent!.parentSpanId).toBe(turn!.spanId);
      expect(handled!.parentSpanId).toBe(sent!.spanId);
      expect(forwarded!.parentSpanId).toBe(handled!.spanId);
      expect(upstream!.parentSpanId).toBe(forwarded!.spanId);

      const handledAttributes = attributesOf(handled!.attributes);
      expect(handledAttributes).toMatchObject({
        [ATTR.toolName]: 'kit__echo',
        [GATEWAY_ATTR.upstreamServer]: 'kit',
        [GATEWAY_ATTR.upstreamTarget]: 'echo',
        [GATEWAY_ATTR.principal]: `alice-${era}`,
      });
      expect(attributesOf(forwarded!.attributes)).toMatchObject({
        [ATTR.toolName]: 'echo',
        [ATTR.networkTransport]: 'pipe',
        [GATEWAY_ATTR.upstreamServer]: 'kit',
        [GATEWAY_ATTR.principal]: `alice-${era}`,
      });
      // The upstream and the agent know nothing of the gateway's audit.
      for (const span of [sent!, upstream!])
        expect(Object.keys(attributesOf(span.attributes)).filter((k) => k.startsWith('mcpwire.gateway'))).toEqual([]);

      // No token (nor any part of it) and no configured secret in any span of any process.
      const everything = JSON.stringify(receiver.spans());
      for (const part of [token, ...token.split('.'), SECRET]) expect(everything).not.toContain(part);
    });
  }
});
