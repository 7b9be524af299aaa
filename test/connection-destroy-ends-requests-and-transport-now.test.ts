/**
 * `JsonRpcConnection.destroy(reason)`: every pending request rejects at once with
 * `CONNECTION_CLOSED` (cause: the reason), and the transport is destroyed rather than closed, its
 * `closed` carrying the reason. Every shipped transport has `destroy`.
 */
import { describe, expect, it } from 'vitest';
import { JsonRpcConnection } from '../src/protocol/connection.js';
import { McpError } from '../src/protocol/errors.js';
import { createLinkedPair } from '../src/transport/memory.js';

describe('JsonRpcConnection.destroy', () => {
  it('rejects pending requests with CONNECTION_CLOSED caused by the reason and destroys the transport with it', async () => {
    const [near, far] = createLinkedPair();
    const connection = new JsonRpcConnection(near, { name: 'srv' });
    const pending = connection.requestRaw('tools/list').catch((e: unknown) => e);
    const reason = new McpError('TRANSPORT', 'the host is going down');

    connection.destroy(reason);
    const error = await pending;
    expect(error).toMatchObject({ code: 'CONNECTION_CLOSED', server: 'srv', method: 'tools/list' });
    expect((error as McpError).cause).toMatchObject({ code: 'CONNECTION_CLOSED', cause: reason });
    await expect(near.closed).resolves.toEqual({ error: reason });
    await expect(far.closed).resolves.toEqual({});
    expect(connection.isClosed).toBe(true);
    expect(connection.pendingCount).toBe(0);
    await expect(connection.requestRaw('ping')).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    // Harmless afterwards, and close() still resolves.
    connection.destroy();
    await connection.close();
  });

  it('leaves no pending record and needs no transport close when nothing was pending', async () => {
    const [near] = createLinkedPair();
    const connection = new JsonRpcConnection(near);
    connection.destroy();
    await expect(near.closed).resolves.toEqual({});
    await expect(connection.closed).resolves.toEqual({});
  });
});
