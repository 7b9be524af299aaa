/**
 * The client's re-send policy for requests an HTTP transport lost. Transports never re-send;
 * they say in the error whether the server may have run the message (`HttpError.resend`), and
 * this decides:
 * - `if-idempotent` (a response stream broke): methods without side effects are sent once more,
 *   as a new request; others keep the error.
 * - {@link SessionExpiredError} (legacy Streamable HTTP, 404 for the session id; the server never
 *   ran it): a new session is established — one `initialize` with the params the connect used,
 *   `notifications/initialized`, the transport told — shared by every request that failed the
 *   same way, and the request is sent once more, as a new request. Requests sent meanwhile wait
 *   for the new session.
 */
import type { JsonRpcConnection } from '../protocol/connection.js';
import { HttpError, McpError, SessionExpiredError } from '../protocol/errors.js';
import type { InitializeParams } from '../protocol/types.js';
import type { StreamableHttpTransport } from '../transport/http/streamable-http.js';

/** Methods without side effects: re-sent once when an HTTP stream broke before their response. */
const RESENDABLE = new Set([
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
  'resources/read',
  'server/discover',
  'ping',
]);

/** What the policy needs of its client. */
export interface ResendHost {
  /** The connection requests run on now. */
  readonly connection: JsonRpcConnection;
  /** The client's Streamable HTTP transport in the legacy era (sessions can expire), else undefined. */
  readonly legacyHttp: StreamableHttpTransport | undefined;
  /** The `initialize` params the connect used (legacy). */
  readonly initializeParams: InitializeParams | undefined;
  /** The idle timeout of the re-established handshake's `initialize`. */
  readonly requestTimeoutMs: number;
  diagnostic(kind: string, message: string): void;
}

/** One client's lost-request handling: see the file comment. */
export class Resender {
  private reestablishing: Promise<void> | undefined;

  constructor(private readonly host: ResendHost) {}

  /** A new session being established: requests wait for it before they are sent. */
  get pending(): Promise<void> | undefined {
    return this.reestablishing;
  }

  /**
   * `sent`, or what `again` resolves with when `sent` was lost in a way the policy re-sends.
   * Costs nothing for a method that can be neither re-sent nor lost with its session.
   */
  guard<T>(method: string, sent: Promise<T>, again: () => Promise<T>): Promise<T> {
    const http = this.host.legacyHttp;
    if (!http && !RESENDABLE.has(method)) return sent;
    return sent.catch((error: unknown) => {
      if (error instanceof SessionExpiredError && http) {
        this.host.diagnostic(
          'session-expired',
          `${method}: ${error.reason}; starting a new session and sending it again`,
        );
        return this.reestablish(http).then(again);
      }
      if (!(error instanceof HttpError) || error.resend !== 'if-idempotent' || !RESENDABLE.has(method)) throw error;
      this.host.diagnostic('resent', `${method}: ${error.message}; sent again (no side effects)`);
      return again();
    });
  }

  /** One new legacy session for every request that lost the old one. Rejects with the handshake's error. */
  private reestablish(http: StreamableHttpTransport): Promise<void> {
    this.reestablishing ??= (async () => {
      const { connection, initializeParams, requestTimeoutMs } = this.host;
      http.setSession({ era: 'legacy' });
      if (!initializeParams)
        throw new McpError('INVALID_STATE', 'the session expired before a handshake was made', {
          server: connection.name,
        });
      const params = initializeParams;
      const result = await connection.request('initialize', params, { timeoutMs: requestTimeoutMs });
      http.setSession({ era: 'legacy', protocolVersion: result.protocolVersion });
      await connection.notify('notifications/initialized', undefined);
      http.setSession({ era: 'legacy', protocolVersion: result.protocolVersion, established: true });
    })().finally(() => {
      this.reestablishing = undefined;
    });
    return this.reestablishing;
  }
}
