/**
 * Scripted in-memory servers of each era for client unit tests.
 */
import { McpClient } from '../../src/client/mcp-client.js';
import type { ClientOptions } from '../../src/client/options.js';
import type { ServerCapabilities } from '../../src/protocol/types.js';
import { hasSchema, validateMessage } from '../kit/spec-schemas.js';
import { type ScriptedPeer, scriptedPair } from './scripted-peer.js';

export const ALL_CAPS: ServerCapabilities = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  logging: {},
  completions: {},
};

/** A legacy server: `server/discover` → -32601, `initialize` answers `version`. */
export function legacyPeer(
  peer: ScriptedPeer,
  version = '2025-11-25',
  capabilities: ServerCapabilities = ALL_CAPS,
): ScriptedPeer {
  return peer
    .on('server/discover', () => ({ error: { code: -32601, message: 'Method not found' } }))
    .on('initialize', () => ({
      protocolVersion: version,
      capabilities,
      serverInfo: { name: 'fake-legacy', version: '1.0.0' },
      instructions: 'be nice',
    }));
}

/** A modern server: `server/discover` answers with 2026-07-28. */
export function modernPeer(peer: ScriptedPeer, capabilities: ServerCapabilities = ALL_CAPS): ScriptedPeer {
  return peer.on('server/discover', () => ({
    resultType: 'complete',
    supportedVersions: ['2026-07-28'],
    capabilities,
    serverInfo: { name: 'fake-modern', version: '2.0.0' },
    ttlMs: 0,
    cacheScope: 'public',
  }));
}

/** Connects a client to a scripted peer prepared by `prepare`. */
export async function connectTo(
  prepare: (peer: ScriptedPeer) => void,
  options: ClientOptions = {},
): Promise<{ client: McpClient; peer: ScriptedPeer }> {
  const { clientTransport, peer } = scriptedPair();
  prepare(peer);
  const client = await McpClient.connect(clientTransport, { name: 'fake', probeTimeoutMs: 200, ...options });
  return { client, peer };
}

/**
 * Validates everything the client sent to `peer` against the official schema of `revision`
 * (the dual-era `server/discover` probe against 2026-07-28, where it is defined). Returns the
 * problems, one string each; empty when all is valid or no schema exists for the revision.
 */
export function invalidClientTraffic(peer: ScriptedPeer, revision: string): string[] {
  const requestMethods = new Map<string | number, string>();
  for (const m of peer.sent as Array<Record<string, unknown>>) {
    if (m && typeof m.method === 'string' && 'id' in m) requestMethods.set(m.id as string | number, m.method);
  }
  const problems: string[] = [];
  for (const message of peer.received) {
    const rev = message.method === 'server/discover' ? '2026-07-28' : revision;
    if (!hasSchema(rev)) continue;
    const outcome = validateMessage(rev, message, 'client', { requestMethods });
    if (!outcome.ok) problems.push(`${JSON.stringify(message).slice(0, 200)}: ${outcome.errors}`);
  }
  return problems;
}
