import { describe, expect, it } from 'vitest';
import { connectTo, invalidClientTraffic, legacyPeer, modernPeer } from './support/fake-servers.js';
import { NO_REPLY } from './support/scripted-peer.js';
import { until } from './support/wait.js';

const listens = (received: Array<Record<string, unknown>>) =>
  received.filter((m) => m.method === 'subscriptions/listen');
const filterOf = (m: Record<string, unknown>) => (m.params as { notifications: Record<string, unknown> }).notifications;

describe('change feeds behind one API', () => {
  it('modern: opens one listen stream for the advertised list changes and turns its notifications into events', async () => {
    const { client, peer } = await connectTo((p) => modernPeer(p).on('subscriptions/listen', () => NO_REPLY));
    const listen = await peer.waitFor((m) => m.method === 'subscriptions/listen');
    expect(filterOf(listen)).toEqual({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
    const events: string[] = [];
    client.on('toolsChanged', () => events.push('tools'));
    client.on('promptsChanged', () => events.push('prompts'));
    client.on('resourcesChanged', () => events.push('resources'));
    const meta = { _meta: { 'io.modelcontextprotocol/subscriptionId': listen.id } };
    await peer.notify('notifications/subscriptions/acknowledged', { notifications: filterOf(listen), ...meta });
    await peer.notify('notifications/tools/list_changed', meta);
    await peer.notify('notifications/prompts/list_changed', meta);
    await peer.notify('notifications/resources/list_changed', meta);
    await until(() => events.length >= 3, { what: 'three change events' });
    expect(events).toEqual(['tools', 'prompts', 'resources']);
    expect(invalidClientTraffic(peer, '2026-07-28')).toEqual([]);
    await client.close();
  });

  it('modern: subscribing to a resource replaces the stream with one that names the URI, and unsubscribing drops it', async () => {
    const { client, peer } = await connectTo((p) => modernPeer(p).on('subscriptions/listen', () => NO_REPLY));
    const first = await peer.waitFor((m) => m.method === 'subscriptions/listen');
    const updates: string[] = [];
    client.on('resourceUpdated', (p) => updates.push(p.uri));
    const unsubscribe = await client.subscribeResource('test://a');
    const second = await peer.waitFor((m) => m.method === 'subscriptions/listen' && m.id !== first.id);
    expect(filterOf(second).resourceSubscriptions).toEqual(['test://a']);
    // The replaced stream is ended the stdio way: a cancel notice naming its id.
    await peer.waitFor(
      (m) => m.method === 'notifications/cancelled' && (m.params as { requestId: unknown }).requestId === first.id,
    );
    await peer.notify('notifications/resources/updated', {
      uri: 'test://a',
      _meta: { 'io.modelcontextprotocol/subscriptionId': second.id },
    });
    await until(() => updates.length >= 1, { what: 'the resourceUpdated event' });
    expect(updates).toEqual(['test://a']);
    await unsubscribe();
    const third = await peer.waitFor(
      (m) => m.method === 'subscriptions/listen' && m.id !== first.id && m.id !== second.id,
    );
    expect(filterOf(third).resourceSubscriptions).toBeUndefined();
    expect(peer.methods()).not.toContain('resources/subscribe');
    await client.close();
  });

  it('modern: re-listens after an abnormal end of the stream', async () => {
    let opened = 0;
    const { client, peer } = await connectTo((p) =>
      modernPeer(p).on('subscriptions/listen', () =>
        ++opened === 1 ? { error: { code: -32603, message: 'stream broke' } } : NO_REPLY,
      ),
    );
    const diagnostics: string[] = [];
    client.on('diagnostic', (d) => diagnostics.push(d.kind));
    await peer.waitFor(() => listens(peer.received).length >= 2, 3000);
    expect(opened).toBe(2);
    await client.close();
  });

  it('modern: sends no listen when the server advertises no change feeds, or when turned off', async () => {
    const quiet = await connectTo((p) => modernPeer(p, { tools: {} }));
    const off = await connectTo((p) => modernPeer(p), { listen: false });
    // A listen is sent as the handshake ends; once a later ping is answered it would have arrived.
    await Promise.all([quiet.peer.roundTrip(), off.peer.roundTrip()]);
    expect(listens(quiet.peer.received)).toEqual([]);
    expect(listens(off.peer.received)).toEqual([]);
    await quiet.client.close();
    await off.client.close();
  });

  it('legacy: subscribes with resources/subscribe and unsubscribes once', async () => {
    const { client, peer } = await connectTo((p) =>
      legacyPeer(p)
        .on('resources/subscribe', () => ({}))
        .on('resources/unsubscribe', () => ({})),
    );
    const updates: string[] = [];
    client.on('resourceUpdated', (p) => updates.push(p.uri));
    const unsubscribe = await client.subscribeResource('test://b');
    await peer.notify('notifications/resources/updated', { uri: 'test://b' });
    await until(() => updates.length >= 1, { what: 'the resourceUpdated event' });
    await unsubscribe();
    await unsubscribe();
    expect(updates).toEqual(['test://b']);
    expect(peer.methods().filter((m) => m.startsWith('resources/'))).toEqual([
      'resources/subscribe',
      'resources/unsubscribe',
    ]);
    expect(invalidClientTraffic(peer, client.protocolVersion)).toEqual([]);
    await client.close();
  });
});
