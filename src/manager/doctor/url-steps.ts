/**
 * The checks of a URL server before its session: `dns`, `tcp`, `tls` (https), `http` (the shape it
 * speaks, found as the client finds it, or the 401/403 it answered first), `oauth` (discovery, after
 * a 401/403), `login` (the stored login), and `connect` (a refusal no other check explains).
 */
import { errorMessage } from '../../protocol/errors.js';
import { failKind, type Diagnosis } from './diagnosis.js';
import { checkDns, checkTcp, checkTls } from './network-checks.js';
import { checkDiscovery, checkLogin, refusalOf } from './oauth-checks.js';
import { skipped } from './run-check.js';

const SHAPES = {
  modern: '2026-07-28 Streamable HTTP (stateless)',
  legacy: 'legacy Streamable HTTP (sessions)',
  sse: '2024-11-05 HTTP+SSE (the old transport)',
} as const;

const SESSION = ['revision', 'tools', 'schemas'];

/** Runs the steps; resolves true when the server is connected. */
export async function urlSteps(d: Diagnosis): Promise<boolean> {
  const { spec, options } = d;
  const url = new URL(spec.url!);
  let address: string | undefined;
  const dns = await d.check('dns', async () => {
    const { address: found, ...outcome } = await checkDns(url);
    address = found;
    return outcome;
  });
  if (dns.verdict === 'fail') {
    d.skip(['tcp', 'tls', 'http', 'oauth', 'login', ...SESSION], 'the host does not resolve');
    return false;
  }
  const tcp = await d.check('tcp', (signal) => checkTcp(url, address!, signal));
  if (tcp.verdict === 'fail') {
    d.skip(['tls', 'http', 'oauth', 'login', ...SESSION], 'no connection');
    return false;
  }
  if (url.protocol === 'https:') {
    const tls = await d.check('tls', (signal) => checkTls(url, address!, signal));
    if (tls.verdict === 'fail') {
      d.skip(['http', 'oauth', 'login', ...SESSION], 'the TLS handshake failed');
      return false;
    }
  } else d.add(skipped('tls', 'plain http (no TLS)'));

  await d.check('http', async (signal) => {
    await d.connect(signal);
    const { connected, connectError } = d;
    const route = d.routes.get(url.toString()) ?? (spec.transport === 'sse' ? 'sse' : connected?.client.era);
    if (connected) {
      const mismatch = spec.transport === 'sse' && route !== 'sse';
      return {
        verdict: mismatch ? 'warn' : 'ok',
        detail: `speaks ${route ? SHAPES[route] : 'Streamable HTTP'}; answered in ${connected.ms} ms`,
        ...(mismatch ? { fix: 'its entry says "sse": "http" would use the newer transport' } : {}),
      };
    }
    const refusal = refusalOf(connectError);
    if (refusal)
      return {
        verdict: 'warn',
        detail: `answered HTTP ${refusal.status}: it wants authorization before it says more`,
        fix: 'see the oauth and login checks',
      };
    return {
      verdict: 'fail',
      kind: failKind(connectError),
      detail: errorMessage(connectError),
      fix: "check that the URL is the server's MCP endpoint (often /mcp)",
    };
  });

  const refusal = refusalOf(d.connectError);
  const connected = d.connected !== undefined;
  const useOAuth = spec.oauth !== false && spec.headersHelper === undefined;
  if (refusal && useOAuth) await d.check('oauth', (signal) => checkDiscovery(url, spec.name, refusal, signal));
  else {
    const why = refusal
      ? 'OAuth is off for this server'
      : connected
        ? 'the server asked for no authorization'
        : 'the server did not answer';
    d.add(skipped('oauth', why));
  }
  if (useOAuth)
    await d.check('login', () =>
      checkLogin(url, options.store, options.loginCommand, refusal !== undefined, connected),
    );
  else
    d.add(skipped('login', spec.headersHelper ? 'authorized by its headersHelper' : 'OAuth is off ("oauth": false)'));
  if (connected) return true;
  if (refusal && !d.checks.some((c) => c.verdict === 'fail'))
    d.add({
      id: 'connect',
      verdict: 'fail',
      kind: 'auth',
      detail: errorMessage(d.connectError),
      fix: `run: ${options.loginCommand}`,
      ms: 0,
    });
  d.skip(SESSION, 'the server did not answer the handshake');
  return false;
}
