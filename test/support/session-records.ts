/**
 * Session records as a server kit's session store takes them, for the state store tests.
 */
import { randomUUID } from 'node:crypto';
import type { StoredSession } from '../../src/server/state/session-store.js';

/** A fresh session (a new id unless given) owned by `owner`, for `principal`, with nothing negotiated. */
export function sessionRecord(
  options: { sessionId?: string; principal?: string; owner?: string } = {},
): Omit<StoredSession, 'createdAt' | 'lastSeen'> {
  return {
    sessionId: options.sessionId ?? randomUUID(),
    principal: options.principal,
    owner: options.owner ?? 'node-a',
    revision: undefined,
    clientCapabilities: {},
    clientInfo: undefined,
    logLevel: 'info',
    subscriptions: [],
  };
}
