/**
 * The browser step's other end: a one-shot HTTP listener on 127.0.0.1 that receives the
 * authorization response (RFC 8252 §7.3). It listens on loopback only, on the preferred port
 * when free (a stable redirect URI keeps a registration valid) else on any; it answers every
 * request with a small page, accepts the first callback whose `state` is the expected one, and
 * closes. A callback with another `state` fails the login (a forged or stale response); no
 * callback within the timeout fails it too. Nothing is left behind: `close()` ends the listener,
 * its sockets and its timer.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuthError } from './auth-error.js';

/** Options of {@link LoopbackReceiver.start}. */
export interface LoopbackReceiverOptions {
  /** The port to try first (default 0: any free port). */
  port?: number;
  /** With true, `port` or nothing: a port in use fails the start, naming it. */
  fixed?: boolean;
  /** The callback path (default `/callback`). */
  path?: string;
  /** Used in error messages. */
  serverName: string;
}

const PAGE = (title: string, text: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body></html>`;

/** One listener waiting for one authorization response. */
export class LoopbackReceiver {
  /** The redirect URI to register and send, `http://127.0.0.1:<port><path>`. */
  readonly redirectUri: string;
  private readonly server: Server;
  private readonly path: string;
  private readonly serverName: string;
  private closed = false;

  private constructor(server: Server, path: string, serverName: string) {
    this.server = server;
    this.path = path;
    this.serverName = serverName;
    this.redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  }

  /**
   * Listens on 127.0.0.1 (the preferred port, else any; with `fixed`, that port only). Rejects
   * with an {@link OAuthError} (step `callback`) when no port can be had, naming a fixed one.
   */
  static async start(options: LoopbackReceiverOptions): Promise<LoopbackReceiver> {
    const path = options.path ?? '/callback';
    const listen = (port: number): Promise<Server> =>
      new Promise((resolve, reject) => {
        const server = createServer();
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve(server);
        });
      });
    const preferred = options.port ?? 0;
    let server: Server;
    try {
      server = await listen(preferred);
    } catch (error) {
      if (options.fixed === true && preferred !== 0) {
        const code = (error as NodeJS.ErrnoException).code;
        const why = code === 'EADDRINUSE' ? 'it is in use' : code === 'EACCES' ? 'it is not allowed' : String(code);
        throw new OAuthError(
          `could not listen on 127.0.0.1:${preferred} for the login callback (the fixed callback port): ${why}; free the port or choose another`,
          { server: options.serverName, step: 'callback', cause: error },
        );
      }
      if (preferred === 0)
        throw new OAuthError(`could not listen on 127.0.0.1 for the login callback: ${(error as Error).message}`, {
          server: options.serverName,
          step: 'callback',
          cause: error,
        });
      server = await listen(0); // the preferred port is taken: any port, and a new registration if it must be
    }
    return new LoopbackReceiver(server, path, options.serverName);
  }

  /**
   * Resolves with the callback's query parameters (the whole authorization response, `error`
   * included: the caller validates it) once a request with `state` arrives. Rejects with an
   * {@link OAuthError} (step `callback`) on another state, after `timeoutMs`, or on `signal`.
   * Closes the listener either way.
   */
  wait(state: string, timeoutMs: number, signal?: AbortSignal): Promise<URLSearchParams> {
    return new Promise<URLSearchParams>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (outcome: () => void): void => {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.server.removeListener('request', onRequest);
        void this.close();
        outcome();
      };
      const onAbort = (): void => finish(() => reject(signal!.reason));
      const onRequest = (req: { url?: string; method?: string }, res: ServerResponse): void => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        if (url.pathname !== this.path || req.method !== 'GET') {
          reply(res, 404, PAGE('Not found', 'This address only receives a login callback.'));
          return;
        }
        const params = url.searchParams;
        if (params.get('state') !== state) {
          reply(
            res,
            400,
            PAGE('Login refused', 'This response does not belong to the login in progress. You can close this tab.'),
          );
          finish(() =>
            reject(
              new OAuthError(
                'the login callback carried a state that is not the one sent (a forged or stale authorization response); log in again',
                { server: this.serverName, step: 'callback' },
              ),
            ),
          );
          return;
        }
        const failed = params.has('error');
        reply(
          res,
          200,
          failed
            ? PAGE('Login failed', 'The authorization server refused the login. You can close this tab.')
            : PAGE('Logged in', 'mcpwire received the login. You can close this tab.'),
        );
        finish(() => resolve(params));
      };
      if (signal?.aborted) return finish(() => reject(signal.reason));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.server.on('request', onRequest);
      timer = setTimeout(
        () =>
          finish(() =>
            reject(
              new OAuthError(
                `no login callback arrived within ${timeoutMs} ms; open the authorization URL in a browser and finish the login, or raise the login timeout`,
                { server: this.serverName, step: 'callback' },
              ),
            ),
          ),
        timeoutMs,
      );
    });
  }

  /** Stops listening and ends open sockets. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

function reply(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'close',
  });
  res.end(html);
}
