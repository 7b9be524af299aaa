/**
 * The network under a URL server, one step each: the host name resolves (DNS), a TCP connection
 * opens, and for https the TLS handshake succeeds with a certificate that is valid for the host
 * and not about to expire. Each honours its signal.
 */
import { lookup } from 'node:dns/promises';
import { isIP, Socket } from 'node:net';
import { checkServerIdentity, connect as tlsConnect, type PeerCertificate } from 'node:tls';
import { errorMessage } from '../../protocol/errors.js';
import type { CheckOutcome } from './run-check.js';

/** A certificate that expires within this many days is a warning. */
export const CERT_WARN_DAYS = 14;

/** A certificate name field (a string, or several). */
function nameOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The host of `url` without IPv6 brackets, and its port (the scheme's default when absent). */
export function endpointOf(url: URL): { host: string; port: number } {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { host, port };
}

/** The `dns` check; resolves the addresses for the next check too. */
export async function checkDns(url: URL): Promise<CheckOutcome & { address?: string }> {
  const { host } = endpointOf(url);
  if (isIP(host)) return { verdict: 'ok', detail: `${host} is an address (no lookup needed)`, address: host };
  try {
    const addresses = await lookup(host, { all: true });
    const shown = addresses.map((a) => a.address);
    return { verdict: 'ok', detail: `${host} resolves to ${shown.join(', ')}`, address: shown[0]! };
  } catch (error) {
    return {
      verdict: 'fail',
      kind: 'unreachable',
      detail: `${host} does not resolve: ${(error as { code?: string }).code ?? errorMessage(error)}`,
      fix: 'check the host name in "url", and your network or VPN',
    };
  }
}

/** The `tcp` check: a connection to `address` (from the `dns` check) on the URL's port. */
export function checkTcp(url: URL, address: string, signal: AbortSignal): Promise<CheckOutcome> {
  const { host, port } = endpointOf(url);
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (outcome: CheckOutcome) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(outcome);
    };
    const onAbort = () =>
      done({ verdict: 'fail', kind: 'timeout', detail: `no connection to ${host}:${port} in time` });
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () =>
      done({
        verdict: 'ok',
        detail: `connected to ${address}:${port} in ${Math.round(performance.now() - started)} ms`,
      }),
    );
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done({
        verdict: 'fail',
        kind: 'unreachable',
        detail:
          error.code === 'ECONNREFUSED'
            ? `nothing listens on ${host}:${port} (connection refused)`
            : `cannot connect to ${host}:${port}: ${error.code ?? errorMessage(error)}`,
        fix:
          error.code === 'ECONNREFUSED'
            ? 'start the server, or check the port in "url"'
            : 'check the address, a firewall, or a proxy in between',
      }),
    );
    socket.connect(port, address);
  });
}

/** The `tls` check (https only): the handshake, the certificate's validity for the host, its expiry. */
export function checkTls(url: URL, address: string, signal: AbortSignal, now = Date.now()): Promise<CheckOutcome> {
  const { host, port } = endpointOf(url);
  return new Promise((resolve) => {
    const socket = tlsConnect({
      host: address,
      port,
      servername: isIP(host) ? undefined : host,
      rejectUnauthorized: false,
    });
    const done = (outcome: CheckOutcome) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(outcome);
    };
    const onAbort = () =>
      done({ verdict: 'fail', kind: 'timeout', detail: `no TLS handshake with ${host}:${port} in time` });
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('secureConnect', () => {
      const cert: PeerCertificate = socket.getPeerCertificate();
      const until = Date.parse(cert.valid_to);
      const days = Number.isFinite(until) ? Math.floor((until - now) / 86_400_000) : -1;
      const subject = nameOf(cert.subject?.CN) ?? host;
      const issuer = nameOf(cert.issuer?.O) ?? nameOf(cert.issuer?.CN) ?? 'an unknown issuer';
      const date = Number.isFinite(until) ? new Date(until).toISOString().slice(0, 10) : 'an unreadable date';
      const shown = `certificate for ${subject} by ${issuer}, valid until ${date}`;
      const wrongHost = checkServerIdentity(host, cert);
      if (!socket.authorized || wrongHost)
        return done({
          verdict: 'fail',
          kind: 'unreachable',
          detail: `${shown}: not trusted (${wrongHost ? wrongHost.message : String(socket.authorizationError)})`,
          fix: 'the server needs a certificate from a trusted authority for this host name (or set NODE_EXTRA_CA_CERTS to your CA)',
        });
      if (days < CERT_WARN_DAYS)
        return done({
          verdict: 'warn',
          detail: `${shown}: expires in ${days} day(s)`,
          fix: 'renew the certificate before it expires',
        });
      done({ verdict: 'ok', detail: `${shown} (${days} days left)` });
    });
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done({
        verdict: 'fail',
        kind: 'unreachable',
        detail: `TLS handshake with ${host}:${port} failed: ${error.code ?? errorMessage(error)}`,
        fix: 'check that the port speaks https (http:// URLs are plain)',
      }),
    );
  });
}
