/**
 * The one deadline of `McpClient.connect`. It starts when `connect` is called and every step of
 * the connect spends from it: loading the stdio transport and starting the server, the
 * `server/discover` probe, a restart after the probe, the handshake (`initialize` or
 * `server/discover`, with its one retry) and the `logging/setLevel` that follows it. Running out
 * is one `TIMEOUT` naming the step and the whole connect timeout, never the slice that step got.
 */
import { isMcpError, McpError } from '../protocol/errors.js';

/** A connect's deadline; see the file comment. Measured on the monotonic clock. */
export class ConnectDeadline {
  /** The whole connect timeout, as the caller gave it (or the default). */
  readonly totalMs: number;
  /** The `server/discover` probe got no answer in time (said when a later request times out too). */
  probeSilent = false;
  private readonly endsAt: number;

  constructor(totalMs: number) {
    this.totalMs = totalMs;
    this.endsAt = performance.now() + totalMs;
  }

  /** Milliseconds left; zero or less once the deadline has passed. */
  left(): number {
    return this.endsAt - performance.now();
  }

  /**
   * Throws `TIMEOUT` (`the connect timeout of N ms ran out <when>`) when nothing is left; `when`
   * says which step could not start or finish, e.g. `before the server was started`.
   */
  check(server: string, when: string): void {
    if (this.left() <= 0) throw this.ranOut(server, when);
  }

  /** The `TIMEOUT` of {@link check}, for a step that found the deadline passed once it returned. */
  ranOut(server: string, when: string): McpError {
    return new McpError('TIMEOUT', `the connect timeout of ${this.totalMs} ms ran out ${when}`, { server });
  }

  /**
   * Sends one request of the connect with what is left as both its idle timeout and its cap
   * (progress must not stretch a connect). Rejects with the request's own error, except that
   * running out (before sending or while waiting) is one `TIMEOUT` naming `method` and the whole
   * connect timeout.
   */
  async request<T>(server: string, method: string, send: (timeoutMs: number) => Promise<T>): Promise<T> {
    const left = this.left();
    if (left <= 0) throw this.unanswered(server, method, undefined);
    try {
      return await send(left);
    } catch (error) {
      if (isMcpError(error, 'TIMEOUT')) throw this.unanswered(server, method, error);
      throw error;
    }
  }

  private unanswered(server: string, method: string, cause: unknown): McpError {
    // Only the handshake follows the probe directly: a later request got an answered handshake first.
    const probe = this.probeSilent && method === 'initialize' ? ' (nor did the server/discover probe before it)' : '';
    return new McpError('TIMEOUT', `got no answer within the connect timeout of ${this.totalMs} ms${probe}`, {
      server,
      method,
      ...(cause === undefined ? {} : { cause }),
    });
  }
}
