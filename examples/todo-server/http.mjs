// The todo server over Streamable HTTP at http://HOST:PORT/mcp (the kit's handler on node:http).
// Logs `{"msg":"listening","url":…}` on stderr once it accepts connections; SIGTERM or SIGINT
// stops it gracefully: new requests get 503 while calls in flight finish, then the server, the
// kit's state (its store connections) and the task store close, leaving nothing open. With
// `auth` ({ issuer, audience? }) every request needs a bearer token (a JWT from that issuer for
// this server), and Protected Resource Metadata is served for clients to find the issuer.
import http from 'node:http';
import { createHttpHandler, jwtBearer, LOCAL_HOSTS } from 'mcpwire/server';
import { stderrLine } from './app.mjs';

const GRACE_MS = 10_000;

/**
 * Serves `server` at `config.http` until SIGTERM or SIGINT. `kitState` is state.mjs's opened
 * state (closed on shutdown, after the server); `config.state.leaseMs`, when set, is the legacy
 * SSE streams' owner lease (`streamLeaseMs`).
 */
export async function serveHttp(server, config, repository, kitState) {
  const { host, port } = config.http;
  const auth = config.auth;
  const leaseMs = config.state.leaseMs;
  const hostName = host.includes(':') ? `[${host}]` : host;
  // The handler is made once the port, and so the canonical URL (the tokens' audience), is known.
  let handler;
  const listener = http.createServer((req, res) => handler(req, res));
  await new Promise((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(port, host, resolve);
  });
  const url = `http://${hostName}:${listener.address().port}/mcp`;
  const resource = auth?.audience ?? url;
  handler = createHttpHandler(server, {
    path: '/mcp',
    allowedHosts: [...LOCAL_HOSTS, hostName],
    ...(leaseMs !== undefined ? { streamLeaseMs: leaseMs } : {}),
    ...(auth
      ? { auth: { resource, authorizationServers: [auth.issuer], verifyToken: jwtBearer({ issuer: auth.issuer }) } }
      : {}),
  });
  const stop = async (signal) => {
    stderrLine({ level: 'info', msg: 'stopping', signal, in_flight: handler.inFlight });
    await handler.close({ graceMs: GRACE_MS });
    listener.closeIdleConnections();
    await new Promise((resolve) => listener.close(resolve));
    await server.close();
    await kitState.close();
    await repository.close();
    stderrLine({ level: 'info', msg: 'stopped' });
  };
  await new Promise((resolve) => {
    let stopping = false;
    // The first signal stops gracefully; another SIGTERM meanwhile changes nothing (a supervisor
    // may send one to the process group too), a second SIGINT (Ctrl-C again) exits at once.
    const onSignal = (signal) => {
      if (stopping) {
        if (signal === 'SIGINT') process.exit(130);
        return;
      }
      stopping = true;
      void stop(signal).then(() => {
        process.off('SIGTERM', onSignal);
        process.off('SIGINT', onSignal);
        resolve();
      });
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    // Only now: whoever waits for this line may signal at once.
    stderrLine({
      level: 'info',
      msg: 'listening',
      url,
      name: server.info.name,
      version: server.info.version,
      state: config.state.store,
      node: server.nodeId,
      ...(auth ? { auth_issuer: auth.issuer, resource } : {}),
    });
  });
}
