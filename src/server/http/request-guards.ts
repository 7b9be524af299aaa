/**
 * The checks an HTTP request passes before its body is read: DNS-rebinding protection (the
 * `Host` and `Origin` headers against allow-lists; on by default, since a browser page can
 * otherwise reach a server on localhost through a rebound name), and the media types.
 */
import type { HttpRequestIn, Refusal } from '../../transport/http-server/http-exchange.js';

import { originAllowed, type CorsOptions } from './cors.js';

export type { Refusal };

/** The hostnames a local server answers to by default. */
export const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/** Options of the guards (a subset of the handler's options). */
export interface GuardOptions {
  /**
   * Hostnames (`example.com`) or host:port pairs accepted in `Host`. Default: {@link LOCAL_HOSTS},
   * any port. Read once (lower-cased) on first use: changing the array later changes nothing; make
   * a new handler instead.
   */
  allowedHosts?: readonly string[];
  /** Origins (`https://app.example.com`) accepted in `Origin`. Default: http(s) origins whose host is allowed. A request without `Origin` (not a browser) passes. */
  allowedOrigins?: readonly string[];
  /** `false` turns the Host and Origin checks off (behind a proxy that does them). Default true. */
  dnsRebindingProtection?: boolean;
  /** With a CORS option, its origins pass the Origin check (beside `allowedOrigins`); others are refused. */
  cors?: CorsOptions;
}

/** A `Host`/`Origin` refusal (403), or undefined when the request passes. */
export function checkHostAndOrigin(req: HttpRequestIn, options: GuardOptions): Refusal | undefined {
  if (options.dnsRebindingProtection === false) return undefined;
  const hostRefusal = checkHost(req, options);
  if (hostRefusal) return hostRefusal;
  const hosts = lowerCased(options.allowedHosts ?? LOCAL_HOSTS);
  const origin = req.header('origin');
  if (origin === undefined) return undefined;
  if (options.cors)
    return originAllowed(origin, options.cors) || options.allowedOrigins?.includes(origin)
      ? undefined
      : { status: 403, message: 'Forbidden: the Origin header is not an allowed origin' };
  if (options.allowedOrigins)
    return options.allowedOrigins.includes(origin)
      ? undefined
      : { status: 403, message: 'Forbidden: the Origin header is not an allowed origin' };
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return { status: 403, message: 'Forbidden: the Origin header is not a URL' };
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !hostAllowed(url.host.toLowerCase(), hosts))
    return { status: 403, message: 'Forbidden: the Origin header is not an allowed origin' };
  return undefined;
}

/** A `Host` refusal (403), or undefined when the Host is allowed (or the check is off); `Origin` is not looked at. */
export function checkHost(req: HttpRequestIn, options: GuardOptions): Refusal | undefined {
  if (options.dnsRebindingProtection === false) return undefined;
  const host = req.header('host')?.toLowerCase();
  if (!host || !hostAllowed(host, lowerCased(options.allowedHosts ?? LOCAL_HOSTS)))
    return { status: 403, message: 'Forbidden: the Host header is not an allowed host' };
  return undefined;
}

/** The allow-lists lower-cased, once per list (the options do not change while the handler serves). */
const lowered = new WeakMap<readonly string[], readonly string[]>();
function lowerCased(list: readonly string[]): readonly string[] {
  let result = lowered.get(list);
  if (!result) lowered.set(list, (result = list.map((h) => h.toLowerCase())));
  return result;
}

/** `host` (with or without port) matches an entry given as a bare hostname or as host:port. */
function hostAllowed(host: string, allowed: readonly string[]): boolean {
  if (allowed.includes(host)) return true;
  const bare = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
  return allowed.includes(bare);
}

/** A POST must carry JSON (415 otherwise) and accept JSON or SSE answers (406 otherwise). */
export function checkMediaTypes(req: HttpRequestIn): Refusal | undefined {
  const raw = req.header('content-type');
  const type = raw === 'application/json' ? raw : raw?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json')
    return { status: 415, message: 'Unsupported Media Type: Content-Type must be application/json' };
  const accept = req.header('accept');
  if (accept !== undefined && !/application\/json|text\/event-stream|\*\/\*|application\/\*/i.test(accept)) {
    return { status: 406, message: 'Not Acceptable: Accept must allow application/json or text/event-stream' };
  }
  return undefined;
}

/** True when the client takes an SSE answer. */
export function acceptsSse(req: HttpRequestIn): boolean {
  return /text\/event-stream/i.test(req.header('accept') ?? '');
}
