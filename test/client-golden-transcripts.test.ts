/**
 * Golden wire transcripts: the exact messages the client exchanges in a few flows, compared line
 * by line with `spec-fixtures/transcripts/<rev>-golden-*.jsonl` (which the transcript test also
 * validates against the official schemas). After an intended wire change, regenerate them with
 * `UPDATE=1 npx vitest run test/client-golden-transcripts.test.ts` and review the diff.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { connectTo, legacyPeer, modernPeer } from './support/fake-servers.js';
import type { ScriptedPeer } from './support/scripted-peer.js';
import { within } from './support/wait.js';

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../spec-fixtures/transcripts');

async function matchGolden(file: string, peer: ScriptedPeer): Promise<void> {
  // The client has closed: closing either end of the linked pair closes both, and whatever was
  // sent before the close is delivered first.
  await within(peer.transport.closed, { what: 'the close of the linked pair' });
  const actual = peer.wire.map((line) => JSON.stringify(line)).join('\n') + '\n';
  const target = path.join(DIR, file);
  if (process.env.UPDATE === '1') writeFileSync(target, actual);
  expect(existsSync(target), `${file} is missing: run with UPDATE=1 to create it`).toBe(true);
  expect(actual).toBe(readFileSync(target, 'utf8'));
}

describe('golden wire transcripts of the client', () => {
  it('legacy (era pinned, so no probe): handshake, list, call with a progress token', async () => {
    const { client, peer } = await connectTo(
      (p) =>
        legacyPeer(p, '2025-11-25', { tools: {} })
          .on('tools/list', () => ({
            tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }],
          }))
          .on('tools/call', (m) => ({
            content: [{ type: 'text', text: String((m.params as { arguments: { text: string } }).arguments.text) }],
          })),
      { era: 'legacy' },
    );
    await client.listTools();
    await client.callTool('echo', { text: 'hi' });
    await client.close();
    await matchGolden('2025-11-25-golden-client-legacy-call.jsonl', peer);
  });

  it('modern: discover, then a call that needs an elicitation round trip', async () => {
    let round = 0;
    const { client, peer } = await connectTo(
      (p) =>
        modernPeer(p, { tools: {} }).on('tools/call', () =>
          ++round === 1
            ? {
                resultType: 'input_required',
                inputRequests: {
                  ok: {
                    method: 'elicitation/create',
                    params: {
                      mode: 'form',
                      message: 'Proceed?',
                      requestedSchema: { type: 'object', properties: { yes: { type: 'boolean' } } },
                    },
                  },
                },
                requestState: 'state-1',
              }
            : { resultType: 'complete', content: [{ type: 'text', text: 'done' }] },
        ),
      { handlers: { elicitation: () => ({ action: 'accept', content: { yes: true } }) } },
    );
    await client.callTool('deploy', { env: 'prod' });
    await client.close();
    await matchGolden('2026-07-28-golden-client-input-round-trip.jsonl', peer);
  });
});
