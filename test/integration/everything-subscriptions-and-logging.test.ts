/**
 * server-everything over stdio: logging/setLevel filters the server's log messages, which arrive
 * as `log` events; resources/subscribe makes toggle-subscriber-updates deliver `resourceUpdated`
 * events, and unsubscribing stops them.
 *
 * The server answers subscribe/unsubscribe only after it sent an info-level log about them, so
 * "was that log delivered?" is settled the moment the call resolves: no waiting on absence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoggingMessageParams, ResourceUpdatedParams } from '../../src/protocol/types.js';
import { eventually } from '../support/processes.js';
import { type EverythingHarness, startEverything } from './support/everything-harness.js';

const FEATURES = 'demo://resource/static/document/features.md';
const STARTUP = 'demo://resource/static/document/startup.md';

describe('server-everything: logging and resource subscriptions', () => {
  let harness: EverythingHarness;
  const logs: LoggingMessageParams[] = [];
  const updates: ResourceUpdatedParams[] = [];

  beforeAll(async () => {
    harness = await startEverything();
    harness.client.on('log', (p) => logs.push(p));
    harness.client.on('resourceUpdated', (p) => updates.push(p));
    // Let the startup roots sync log its info line before counting anything.
    await eventually(() => (logs.some((l) => String(l.data).includes('root(s) received')) ? true : undefined), 5_000);
  });
  afterAll(async () => {
    await harness?.stop();
  });

  const logsAbout = (text: string) => logs.filter((l) => String(l.data).includes(text));

  it('delivers simulated log messages as log events after setLoggingLevel(debug)', async () => {
    await harness.client.setLoggingLevel('debug');
    const simulated = () => logs.filter((l) => /level[- ]message/i.test(String(l.data)));
    await harness.client.callTool('toggle-simulated-logging', {});
    // One message goes out at once, then one every 5 s.
    await expect.poll(() => simulated().length, { timeout: 5_000 }).toBeGreaterThan(0);
    await harness.client.callTool('toggle-simulated-logging', {});
    expect(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']).toContain(
      simulated()[0]!.level,
    );
  });

  it('subscribes, receives resourceUpdated for the subscribed URI only, and stops after unsubscribing', async () => {
    await harness.client.setLoggingLevel('info');
    const unsubscribe = await harness.client.subscribeResource(FEATURES);
    expect(logsAbout(`Received Subscribe Resource request for URI: ${FEATURES}`)).toHaveLength(1);

    const before = updates.length;
    await harness.client.callTool('toggle-subscriber-updates', {});
    await expect.poll(() => updates.length, { timeout: 5_000 }).toBeGreaterThan(before);
    await harness.client.callTool('toggle-subscriber-updates', {});
    expect(updates.slice(before).map((u) => u.uri)).toEqual(expect.arrayContaining([FEATURES]));
    expect(updates.some((u) => u.uri === STARTUP)).toBe(false);

    await unsubscribe();
    expect(logsAbout(`Received Unsubscribe Resource request: ${FEATURES}`)).toHaveLength(1);
    // Idempotent: a second call sends nothing.
    await unsubscribe();
    expect(logsAbout(`Received Unsubscribe Resource request: ${FEATURES}`)).toHaveLength(1);

    // Switching updates on sends one round at once, to subscribers only: there are none left.
    const after = updates.length;
    await harness.client.callTool('toggle-subscriber-updates', {});
    await harness.client.ping();
    await harness.client.callTool('toggle-subscriber-updates', {});
    expect(updates.length).toBe(after);
  });

  it('respects the level: at error, the info-level subscribe acknowledgement is not sent', async () => {
    await harness.client.setLoggingLevel('error');
    const unsubscribe = await harness.client.subscribeResource(STARTUP);
    await unsubscribe();
    expect(logsAbout(STARTUP)).toEqual([]);
    await harness.client.setLoggingLevel('info');
    const again = await harness.client.subscribeResource(STARTUP);
    await again();
    expect(logsAbout(STARTUP)).toHaveLength(2);
  });
});

describe('server-everything: the logLevel connect option', () => {
  it('sets the level right after the handshake, so info-level messages never arrive', async () => {
    const harness = await startEverything({ client: { logLevel: 'error' } });
    const logs: LoggingMessageParams[] = [];
    harness.client.on('log', (p) => logs.push(p));
    try {
      const unsubscribe = await harness.client.subscribeResource(FEATURES);
      await unsubscribe();
      expect(logs).toEqual([]);
      await harness.client.setLoggingLevel('info');
      await (
        await harness.client.subscribeResource(FEATURES)
      )();
      // (The startup roots sync logs at info too, whenever its 350 ms timer fires: look at ours only.)
      expect(logs.filter((l) => String(l.data).includes(FEATURES)).map((l) => l.level)).toEqual(['info', 'info']);
    } finally {
      await harness.stop();
    }
  });
});
