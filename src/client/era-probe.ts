/**
 * The `server/discover` probe of a connect that does not pin the era, with a `ping` behind it on
 * stdio so that a legacy server which ignores the probe is recognised in about one round trip
 * instead of the whole probe timeout.
 *
 * Why a `ping`, and why it is safe (the contract):
 * - every legacy revision lets the client ping before the handshake is done (2025-11-25
 *   `basic/lifecycle.mdx`: "The client SHOULD NOT send requests other than pings before the
 *   server has responded to the initialize request"; the SDKs of TypeScript, Python and Go answer
 *   it at any time), and a ping changes nothing on the server;
 * - the ping carries the probe's modern `_meta` envelope (a legacy server reads `_meta` as
 *   request metadata and ignores it). A dual-era server that takes the era of a connection from
 *   its opening messages (the official SDK 2.4.0's `serveStdio`: a request without the envelope
 *   claim is 2025-era traffic) would otherwise pin the connection to legacy on the bare ping,
 *   after it answered the probe, and refuse every modern request from then on (-32601);
 * - a stdio server reads its input in order, so an answer to the ping, whatever it says (a
 *   result or an error), proves the server has read the probe before it. If the probe is still
 *   unanswered a short grace later, the server ignored it: it is a legacy server (the spec's
 *   "no reply … means legacy", known at once rather than after a timeout). The grace covers a
 *   server that answers out of order (an asynchronous discover handler): a quarter of the ping's
 *   round trip, between {@link MIN_GRACE_MS} and {@link MAX_GRACE_MS};
 * - a modern server answers the probe first, as it reads it first; its answer to the ping (a
 *   result, or -32601 from a server that serves the enveloped ping as 2026, which has no ping)
 *   is awaited and ignored. A server still starting (npx) answers neither until it is up, so start-up is
 *   never taken for silence; a server silent on the ping too leaves the probe its timeout, as
 *   before;
 * - a server that exits on the probe exits before the ping is read: the probe fails with
 *   `CONNECTION_CLOSED`, as without the ping.
 * Over HTTP no ping is sent: each POST is answered on its own, so an answer proves nothing about
 * another, and a legacy HTTP server refuses a request without a session anyway.
 */
import type { JsonRpcConnection } from '../protocol/connection.js';
import { McpError } from '../protocol/errors.js';
import type { DiscoverResult, Meta } from '../protocol/types.js';

/** The shortest grace after the ping's answer. */
export const MIN_GRACE_MS = 5;
/** The longest grace after the ping's answer (a slow start makes the round trip long, not the server slow). */
export const MAX_GRACE_MS = 50;

/** When the probe's ping is sent: with the probe, some milliseconds after it when unanswered, or never. */
export type ProbePing = 'with-probe' | { afterMs: number } | 'none';

/** How the probe ended. `ignored`: the server answered the ping after it but never the probe. */
export type ProbeOutcome =
  | { kind: 'answered'; result: DiscoverResult }
  | { kind: 'failed'; error: unknown }
  | { kind: 'ignored'; pingRoundTripMs: number };

/** Inputs of {@link probeEra}. */
export interface ProbeInput {
  /** The probe's `_meta` envelope (the newest modern revision). */
  meta: Meta;
  /** How long the probe (and its ping) may wait. */
  timeoutMs: number;
  ping: ProbePing;
  signal: AbortSignal | undefined;
}

/**
 * Sends `server/discover` (and the ping `input.ping` asks for) on `connection` and resolves with
 * what the server's answers, or their order, say. Never rejects: a failed probe is an outcome for
 * the caller to read. Nothing of the probe stays pending once it resolves but the ping, which a
 * modern server answers right after the probe (its settling is ignored); neither request is ever
 * cancelled on the wire (before the handshake a legacy server expects nothing but it).
 */
export async function probeEra(connection: JsonRpcConnection, input: ProbeInput): Promise<ProbeOutcome> {
  const given = new AbortController();
  const discoverSignal = input.signal ? AbortSignal.any([input.signal, given.signal]) : given.signal;
  const limits = { timeoutMs: input.timeoutMs, maxTotalTimeoutMs: input.timeoutMs, sendCancelNotice: false };
  const discover: Promise<ProbeOutcome> = connection
    .request('server/discover', { _meta: input.meta }, { ...limits, signal: discoverSignal })
    .then(
      (result): ProbeOutcome => ({ kind: 'answered', result }),
      (error: unknown): ProbeOutcome => ({ kind: 'failed', error }),
    );
  if (input.ping === 'none') return discover;

  let pingTimer: ReturnType<typeof setTimeout> | undefined;
  // Resolves with the ping's round trip once the server answered it; never when it did not.
  const pinged = new Promise<number>((resolve) => {
    const send = (): void => {
      const sentAt = performance.now();
      connection
        .request('ping', { _meta: input.meta }, { ...limits, ...(input.signal ? { signal: input.signal } : {}) })
        .then(
          () => resolve(performance.now() - sentAt),
          (error: unknown) => {
            // An error the server sent is an answer too; a timeout, a close or a cancel is not.
            if (error instanceof McpError && error.rpcCode !== undefined) resolve(performance.now() - sentAt);
          },
        );
    };
    if (input.ping === 'with-probe') send();
    else pingTimer = setTimeout(send, (input.ping as { afterMs: number }).afterMs);
  });
  const first = await Promise.race([discover, pinged]);
  clearTimeout(pingTimer);
  if (typeof first !== 'number') return first;

  const graceMs = Math.min(MAX_GRACE_MS, Math.max(MIN_GRACE_MS, first / 4));
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<undefined>((resolve) => {
    graceTimer = setTimeout(() => resolve(undefined), graceMs);
  });
  const late = await Promise.race([discover, grace]);
  clearTimeout(graceTimer);
  if (late !== undefined) return late;
  // Settled at once and locally, without a cancel notice (see the file comment); a late answer is a
  // `late-response` diagnostic, as after a timeout.
  given.abort();
  await discover;
  return { kind: 'ignored', pingRoundTripMs: first };
}
