/**
 * Checks a {@link RecordingTransport}'s traffic against the official MCP schemas: what the client
 * sent as client messages, what the server sent as server messages. Results are checked against
 * the method of the request they answer (looked up by id in the other direction).
 */
import type { RecordingTransport } from '../../kit/recording-transport.js';
import { assertValidClientMessage, assertValidMessage } from '../../kit/spec-schemas.js';

/** The dual-era probe is a 2026-07-28 method; every other message belongs to the negotiated revision. */
export const PROBE_REVISION = '2026-07-28';

interface Wire {
  id?: string | number;
  method?: string;
}

/** The revision a message is checked against. */
export function revisionOf(message: unknown, negotiated: string): string {
  return (message as Wire).method === 'server/discover' ? PROBE_REVISION : negotiated;
}

function requestMethods(recording: RecordingTransport, direction: 'sent' | 'received'): Map<string | number, string> {
  const methods = new Map<string | number, string>();
  for (const record of direction === 'sent' ? recording.sent : recording.received) {
    const m = record.message as Wire;
    if (typeof m.method === 'string' && m.id !== undefined) methods.set(m.id, m.method);
  }
  return methods;
}

/** Every sent message that is not valid, as one readable problem each (empty: all valid). */
export function invalidSent(recording: RecordingTransport, negotiated: string): string[] {
  const answered = requestMethods(recording, 'received');
  const problems: string[] = [];
  for (const record of recording.sent) {
    try {
      assertValidClientMessage(revisionOf(record.message, negotiated), record.message, { requestMethods: answered });
    } catch (error) {
      problems.push(`sent #${record.seq}: ${(error as Error).message}`);
    }
  }
  return problems;
}

/**
 * Every received message that is not valid as a server message of `negotiated` (the probe's answer under 2026-07-28).
 */
export function invalidReceived(recording: RecordingTransport, negotiated: string): string[] {
  const asked = requestMethods(recording, 'sent');
  const problems: string[] = [];
  for (const record of recording.received) {
    const m = record.message as Wire;
    // Ids are per direction: only a response (no method) can answer the probe.
    const revision =
      m.method === undefined && m.id !== undefined && asked.get(m.id) === 'server/discover'
        ? PROBE_REVISION
        : negotiated;
    // A legacy server's refusal of the probe is a plain JSON-RPC error, valid in any revision.
    try {
      assertValidMessage(revision, record.message, 'server', { requestMethods: asked });
    } catch (error) {
      problems.push(`received #${record.seq}: ${(error as Error).message}`);
    }
  }
  return problems;
}

/** The methods of the sent requests and notifications, plus `result:<method>` for each answered server request. */
export function sentKinds(recording: RecordingTransport): Set<string> {
  const answered = requestMethods(recording, 'received');
  const kinds = new Set<string>();
  for (const record of recording.sent) {
    const m = record.message as Wire & { result?: unknown };
    if (m.method) kinds.add(m.method);
    else if (m.result !== undefined && m.id !== undefined) kinds.add(`result:${answered.get(m.id) ?? '?'}`);
    else kinds.add('error-response');
  }
  return kinds;
}
