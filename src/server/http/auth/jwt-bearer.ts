/**
 * A ready-made {@link TokenVerifier}: JWT access tokens (RFC 9068) checked with `jose` against
 * an authorization server's keys — the signature (asymmetric algorithms only), the issuer, the
 * audience (by default the MCP endpoint's canonical URL, RFC 8707, so a token minted for another
 * server is refused), expiry and not-before. Keys and metadata are fetched through a dispatcher
 * the verifier owns (`key-server-http.ts`), closed by the handler's `close()`.
 */
import type { JSONWebKeySet, JWTPayload, JWTVerifyGetKey } from 'jose';
import { McpError } from '../../../protocol/errors.js';
import type { AuthInfo } from '../../auth-info.js';
import { BearerTokenError } from './bearer-error.js';
import type { TokenVerifier } from './bearer-gate.js';
import { KeyServerHttp } from './key-server-http.js';
import { ASYMMETRIC_ALGORITHMS } from './signing-algorithms.js';

/** Options of {@link jwtBearer}. */
export interface JwtBearerOptions {
  /** The authorization server's issuer; a token's `iss` must be exactly this. */
  issuer: string;
  /** Where the signing keys are (fetched when needed, cached by `jose`). */
  jwksUrl?: string | URL;
  /**
   * The signing keys themselves. Without `jwks` and `jwksUrl`, `jwks_uri` is read from the issuer's metadata (RFC 8414,
   * then OpenID discovery) on first use.
   */
  jwks?: JSONWebKeySet;
  /** The audience a token must name (default: the handler's `resource`, the canonical URL of the MCP endpoint). */
  audience?: string;
  /** Scopes every token must grant: one missing is 403 `insufficient_scope`. */
  requiredScopes?: readonly string[];
  /** Accepted signing algorithms (default: RS256, PS256, ES256, ES384, EdDSA and kin; never `none` or HMAC). */
  algorithms?: readonly string[];
  /** Clock skew allowed on `exp` / `nbf`, in seconds (default 5). */
  clockToleranceSec?: number;
}

const KEYS = new Set(['issuer', 'jwksUrl', 'jwks', 'audience', 'requiredScopes', 'algorithms', 'clockToleranceSec']);

/** The verifier {@link jwtBearer} makes: its `close()` ends its connections to the key server. */
export interface JwtBearerVerifier extends TokenVerifier {
  close(): Promise<void>;
}

/**
 * Makes the verifier. Throws `INVALID_ARGUMENT` for an unknown option or both `jwks` and
 * `jwksUrl`. The verifier throws {@link BearerTokenError} `invalid_token` (expired, another
 * audience or issuer, a bad signature, not a JWT) or `insufficient_scope`; `TRANSPORT` when the
 * keys cannot be fetched (the handler answers 500). No error carries the token. A token's
 * `cnf.jkt` (DPoP binding) is in its claims for the handler's DPoP check.
 */
export function jwtBearer(options: JwtBearerOptions): JwtBearerVerifier {
  for (const key of Object.keys(options))
    if (!KEYS.has(key)) throw new McpError('INVALID_ARGUMENT', `unknown jwtBearer option "${key}"`);
  if (typeof options.issuer !== 'string' || options.issuer === '')
    throw new McpError('INVALID_ARGUMENT', 'jwtBearer option "issuer" is required');
  if (options.jwks && options.jwksUrl)
    throw new McpError('INVALID_ARGUMENT', 'jwtBearer takes "jwks" or "jwksUrl", not both');
  const http = new KeyServerHttp();
  let keys: Promise<JWTVerifyGetKey> | undefined;
  const keysOnce = (): Promise<JWTVerifyGetKey> => {
    keys ??= loadKeys(options, http).catch((error: unknown) => {
      keys = undefined; // a failed discovery is tried again by the next request
      throw error;
    });
    return keys;
  };
  const required = options.requiredScopes ?? [];
  const verify = async (token: string, context: Parameters<TokenVerifier>[1]): Promise<AuthInfo> => {
    const jose = await import('jose');
    let payload: JWTPayload;
    try {
      ({ payload } = await jose.jwtVerify(token, await keysOnce(), {
        issuer: options.issuer,
        audience: options.audience ?? context.resource,
        algorithms: [...(options.algorithms ?? ASYMMETRIC_ALGORITHMS)],
        clockTolerance: options.clockToleranceSec ?? 5,
      }));
    } catch (error) {
      throw refusal(error, options.issuer);
    }
    const auth = authInfoOf(payload);
    if (required.some((scope) => !auth.scopes.includes(scope)))
      throw new BearerTokenError('insufficient_scope', 'the token lacks a required scope', {
        requiredScopes: required,
      });
    return auth;
  };
  return Object.assign(verify, { close: () => http.close() });
}

/** The facts of a verified payload. */
function authInfoOf(payload: JWTPayload): AuthInfo {
  const scp = payload.scp;
  const scopeText =
    typeof payload.scope === 'string'
      ? payload.scope
      : typeof scp === 'string'
        ? scp
        : Array.isArray(scp)
          ? scp.filter((s): s is string => typeof s === 'string').join(' ')
          : '';
  const clientId =
    typeof payload.client_id === 'string'
      ? payload.client_id
      : typeof payload.azp === 'string'
        ? payload.azp
        : undefined;
  return {
    ...(typeof payload.sub === 'string' ? { subject: payload.sub } : {}),
    ...(clientId !== undefined ? { clientId } : {}),
    scopes: scopeText.split(' ').filter(Boolean),
    ...(typeof payload.exp === 'number' ? { expiresAt: payload.exp * 1000 } : {}),
    claims: payload,
  };
}

async function loadKeys(options: JwtBearerOptions, http: KeyServerHttp): Promise<JWTVerifyGetKey> {
  const jose = await import('jose');
  if (options.jwks) return jose.createLocalJWKSet(options.jwks);
  const url = options.jwksUrl ?? (await discoverJwksUri(options.issuer, http));
  return jose.createRemoteJWKSet(new URL(url), { [jose.customFetch]: http.fetch });
}

/**
 * `jwks_uri` from the issuer's metadata: RFC 8414's well-known URL (path inserted), then OpenID discovery's (path
 * appended).
 */
async function discoverJwksUri(issuer: string, http: KeyServerHttp): Promise<string> {
  const base = new URL(issuer);
  const path = base.pathname === '/' ? '' : base.pathname.replace(/\/$/, '');
  const candidates = [
    new URL(`/.well-known/oauth-authorization-server${path}`, base.origin),
    new URL(`${path}/.well-known/openid-configuration`, base.origin),
  ];
  for (const url of candidates) {
    let response: Response;
    try {
      response = await http.fetch(url, {
        signal: AbortSignal.timeout(10_000),
        headers: { accept: 'application/json' },
      });
    } catch (error) {
      throw new McpError('TRANSPORT', `reading the metadata of issuer ${issuer} at ${url.href} failed`, {
        cause: error,
      });
    }
    if (!response.ok) {
      await response.body?.cancel();
      continue;
    }
    const metadata = (await response.json().catch(() => undefined)) as
      { issuer?: unknown; jwks_uri?: unknown } | undefined;
    if (metadata?.issuer === issuer && typeof metadata.jwks_uri === 'string') return metadata.jwks_uri;
  }
  throw new McpError('TRANSPORT', `issuer ${issuer} publishes no metadata with its own issuer and a jwks_uri`);
}

/** A jose failure as a refusal; a key-fetching failure is not the token's fault. */
function refusal(error: unknown, issuer: string): Error {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return new BearerTokenError('invalid_token', 'the token has expired');
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED': {
      const claim = (error as { claim?: unknown }).claim;
      if (claim === 'aud') return new BearerTokenError('invalid_token', 'the token is for another audience');
      if (claim === 'iss') return new BearerTokenError('invalid_token', 'the token is from another issuer');
      if (claim === 'nbf') return new BearerTokenError('invalid_token', 'the token is not valid yet');
      return new BearerTokenError(
        'invalid_token',
        `the token's "${typeof claim === 'string' ? claim.slice(0, 40) : 'claims'}" claim is not acceptable`,
      );
    }
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return new BearerTokenError('invalid_token', 'the token signature does not verify');
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return new BearerTokenError('invalid_token', 'no key of the issuer verifies the token');
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return new BearerTokenError('invalid_token', 'the token is signed with an algorithm this server does not accept');
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
    case 'ERR_JWK_INVALID':
      return new BearerTokenError('invalid_token', 'the token is not a valid JWT');
    default:
      if (error instanceof McpError) return error;
      return new McpError('TRANSPORT', `fetching the signing keys of issuer ${issuer} failed`, { cause: error });
  }
}
