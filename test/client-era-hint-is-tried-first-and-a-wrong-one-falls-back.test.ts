/**
 * `eraHint`: a remembered verdict, tried first and never trusted over the server. `legacy` sends
 * `initialize` with no probe; `modern` probes without the ping (on stdio the ping follows only
 * when the probe is unanswered for a while); a wrong hint falls back to probing and the connect
 * succeeds; `era` and `protocolVersion` pin and win over a hint. Over HTTP the hinted route is
 * tried first and a failing one is left for the probe.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../src/observe/trace-record.js';
import { connectClient } from './support/client.js';
import { MODERN, SCRIPTED } from './support/cli.js';
import { connectTo, legacyPeer, modernPeer } from './support/fake-servers.js';
import { legacyServer, startHttpFixture } from './support/http-fixture.js';
import { recordedMethods } from './support/jsonl.js';
import { useTempDir } from './support/temp-dir.js';

const NEVER = { probeTimeoutMs: 600_000, connectTimeoutMs: 1_200_000 } as const;
const temp = useTempDir('mcpwire-hint-');

/** Where the test's server records what it receives. */
function recordFile(): string {
  return path.join(temp.dir, 'received.jsonl');
}

describe('eraHint over a transport', () => {
  it('legacy: initialize at once, no probe', async () => {
    const { client, peer } = await connectTo((p) => legacyPeer(p), { eraHint: 'legacy' });
    expect(client.era).toBe('legacy');
    expect(peer.methods()).toEqual(['initialize', 'notifications/initialized']);
    await client.close();
  });

  it('a wrong legacy hint: the refused initialize is followed by the probe, and the server is modern', async () => {
    const { client, peer } = await connectTo((p) => modernPeer(p), { eraHint: 'legacy', listen: false });
    expect(client.era).toBe('modern');
    expect(peer.methods()).toEqual(['initialize', 'server/discover']);
    await client.close();
  });

  it('modern: the probe alone, answered', async () => {
    const { client, peer } = await connectTo((p) => modernPeer(p), { eraHint: 'modern', listen: false });
    expect(client.era).toBe('modern');
    expect(peer.methods()).toEqual(['server/discover']);
    await client.close();
  });

  it('a wrong modern hint: the refused probe means legacy, as without a hint', async () => {
    const { client, peer } = await connectTo((p) => legacyPeer(p), { eraHint: 'modern' });
    expect(client.era).toBe('legacy');
    expect(peer.methods()).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    await client.close();
  });

  it('era and protocolVersion pin: the hint is not read', async () => {
    const pinned = await connectTo((p) => legacyPeer(p), { era: 'legacy', eraHint: 'modern' });
    expect(pinned.peer.methods()).toEqual(['initialize', 'notifications/initialized']);
    await pinned.client.close();
    const version = await connectTo((p) => modernPeer(p), {
      protocolVersion: '2026-07-28',
      eraHint: 'legacy',
      listen: false,
    });
    expect(version.client.era).toBe('modern');
    expect(version.peer.methods()).toEqual(['server/discover']);
    await version.client.close();
  });
});

describe('eraHint over stdio', () => {
  it.each<[string, 'legacy' | 'modern', string[]]>([
    [
      'legacy on a silent legacy server: no server/discover, no ping',
      'legacy',
      ['initialize', 'notifications/initialized', 'tools/call'],
    ],
    [
      'a wrong modern hint on a silent legacy server: the late ping tells it, well before the probe timeout',
      'modern',
      ['server/discover', 'ping', 'initialize', 'notifications/initialized', 'tools/call'],
    ],
  ])('%s', async (_name, eraHint, sent) => {
    const record = recordFile();
    const client = await connectClient(
      { command: process.execPath, args: [SCRIPTED, '--discover', 'silent', '--record', record] },
      { ...NEVER, eraHint },
    );
    expect(client.era).toBe('legacy');
    await client.callTool('echo', { text: 'x' });
    expect(recordedMethods(record)).toEqual(sent);
  });

  it('a wrong legacy hint on a 2026-only server (initialize refused with -32022): modern', async () => {
    const client = await connectClient(
      { command: process.execPath, args: [MODERN, '--legacy', 'reject'] },
      { eraHint: 'legacy' },
    );
    expect(client.era).toBe('modern');
    await client.listTools();
  });

  // The ping follows a hinted probe only while the probe is unanswered (after a grace: a server
  // slow to start on a busy machine may take longer): checked by the order on the wire, not by time.
  it('modern on a modern server: the probe goes alone, and a ping only while it is unanswered', async () => {
    const records: TraceRecord[] = [];
    const client = await connectClient(
      { command: process.execPath, args: [MODERN] },
      { eraHint: 'modern', trace: { sink: (r) => records.push(r) } },
    );
    expect(client.era).toBe('modern');
    await client.listTools();
    const sent = records.filter((r) => r.dir === 'out' && r.kind === 'request').map((r) => r.method);
    expect(sent.slice(0, 1)).toEqual(['server/discover']);
    const discover = records.find((r) => r.dir === 'out' && r.method === 'server/discover')!;
    const answered = records.findIndex((r) => r.dir === 'in' && r.kind === 'response' && r.id === discover.id);
    const ping = records.findIndex((r) => r.dir === 'out' && r.kind === 'request' && r.method === 'ping');
    expect(answered).toBeGreaterThan(-1);
    if (ping !== -1) expect(ping).toBeLessThan(answered);
  });
});

describe('eraHint over HTTP', () => {
  it('legacy on a legacy Streamable HTTP server: initialize is the first POST', async () => {
    const fixture = await startHttpFixture(legacyServer());
    try {
      const client = await connectClient({ url: fixture.url, transport: 'http' }, { eraHint: 'legacy' });
      expect(client.era).toBe('legacy');
      expect(fixture.seen('server/discover')).toEqual([]);
      await client.close();
    } finally {
      await fixture.close();
    }
  });

  it('a wrong modern hint on a legacy server: the refused 2026 attempt is followed by the probe, and it is legacy', async () => {
    const fixture = await startHttpFixture(legacyServer());
    try {
      const client = await connectClient({ url: fixture.url, transport: 'http' }, { eraHint: 'modern' });
      expect(client.era).toBe('legacy');
      // The hinted 2026 attempt, then the probe's.
      expect(fixture.seen('server/discover')).toHaveLength(2);
      expect(fixture.seen('initialize')).toHaveLength(1);
      await client.close();
    } finally {
      await fixture.close();
    }
  });
});
