/**
 * DPoP-bound access tokens at the resource server (RFC 9449 §7): a request presents
 * `Authorization: DPoP <token>` with one `DPoP` proof, a JWT signed by the key the token is bound
 * to. The proof is checked with `jose` (`typ` `dpop+jwt`, an asymmetric algorithm, the public key
 * embedded in its header), then its claims: `htm` the request's method, `htu` the protected
 * resource's URL (no query or fragment), `iat` recent, `ath` the hash of the token, `nonce` a
 * recent server nonce when nonces are on; then the token itself, whose `cnf.jkt` must be the
 * proof key's thumbprint; last the proof's `jti`, refused when already seen.
 */
import type { JWTPayload } from 'jose';
import type { HttpRequestIn, ResponseSink } from '../../../transport/http-server/http-exchange.js';
import { McpError } from '../../../protocol/errors.js';
import { base64urlFromBytes } from '../../../util/base64url.js';
import type { AuthInfo } from '../../auth-info.js';
import { BearerTokenError } from './bearer-error.js';
import { DpopNonces, type DpopNonceOptions } from './dpop-nonces.js';
import { MemoryReplayCache, type ReplayCache } from './replay-cache.js';
import { ASYMMETRIC_ALGORITHMS } from './signing-algorithms.js';

/** The `dpop` auth option: the endpoint accepts DPoP-bound access tokens (RFC 9449). */
export interface DpopOptions {
  /**
   * Only DPoP-bound tokens are accepted: a `Bearer` one is refused, every challenge is `DPoP`, and
   * the metadata says `dpop_bound_access_tokens_required`. Default false: both schemes, and a
   * token bound to a key (`cnf.jkt`) is still refused as `Bearer`.
   */
  required?: boolean;
  /**
   * Algorithms a proof may be signed with, advertised as `dpop_signing_alg_values_supported` and
   * in the challenge's `algs` (default: the asymmetric RS, PS, ES and EdDSA families).
   */
  algorithms?: readonly string[];
  /**
   * Server nonces (RFC 9449 §8): a proof without a recent nonce is refused `use_dpop_nonce` with
   * a fresh one in `DPoP-Nonce`, and a response to a proof whose nonce is about to rotate carries
   * the next one. `true` for the defaults; nodes behind one load balancer share `secret`.
   */
  nonce?: boolean | DpopNonceOptions;
  /**
   * Where accepted proofs are recorded so a replay is refused (default: a {@link MemoryReplayCache}
   * of this handler). Nodes behind one load balancer share one store.
   */
  replayCache?: ReplayCache;
  /** How old a proof may be (its `iat`), in seconds (default 120). */
  maxAgeSec?: number;
  /** Clock skew allowed on a proof's `iat`, in seconds (default 5). */
  clockToleranceSec?: number;
}

const KEYS = new Set(['required', 'algorithms', 'nonce', 'replayCache', 'maxAgeSec', 'clockToleranceSec']);
/** A compact JWS, bounded: a proof is a few hundred bytes. */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const MAX_PROOF_CHARS = 8192;
const MAX_JTI_CHARS = 256;

/** A proof whose signature and claims checked out. */
interface CheckedProof {
  /** The RFC 7638 SHA-256 thumbprint of the proof's key. */
  readonly jkt: string;
  readonly jti: string;
  readonly iat: number;
}

/** One handler's DPoP checks. */
export class DpopCheck {
  readonly required: boolean;
  readonly algorithms: readonly string[];
  private readonly nonces: DpopNonces | undefined;
  private readonly replayCache: ReplayCache;
  private readonly maxAgeSec: number;
  private readonly clockToleranceSec: number;
  private readonly htu: string;

  /** Throws `INVALID_ARGUMENT` for an unknown key or a bad value. */
  constructor(options: DpopOptions, resource: URL) {
    for (const key of Object.keys(options))
      if (!KEYS.has(key)) throw new McpError('INVALID_ARGUMENT', `unknown HTTP handler auth.dpop option "${key}"`);
    this.required = options.required === true;
    this.algorithms = [...(options.algorithms ?? ASYMMETRIC_ALGORITHMS)];
    if (this.algorithms.length === 0 || this.algorithms.some((alg) => alg === 'none' || /^HS/i.test(alg)))
      throw new McpError('INVALID_ARGUMENT', 'auth.dpop "algorithms" must list asymmetric algorithms only');
    this.nonces = options.nonce === true ? new DpopNonces() : options.nonce ? new DpopNonces(options.nonce) : undefined;
    if (options.replayCache !== undefined && typeof options.replayCache?.seen !== 'function')
      throw new McpError('INVALID_ARGUMENT', 'auth.dpop "replayCache" must have a seen(key, expiresAt) method');
    this.replayCache = options.replayCache ?? new MemoryReplayCache();
    this.maxAgeSec = seconds(options.maxAgeSec, 120, 'maxAgeSec');
    this.clockToleranceSec = seconds(options.clockToleranceSec, 5, 'clockToleranceSec');
    this.htu = urlWithoutQuery(resource) ?? '';
  }

  /** The nonce a `use_dpop_nonce` refusal hands out (none when nonces are off). Never rejects. */
  freshNonce(): Promise<string | undefined> {
    return this.nonces ? this.nonces.current() : Promise.resolve(undefined);
  }

  /**
   * Checks a DPoP-presented request end to end and returns what `verify` said of the token.
   * Throws {@link BearerTokenError}: `invalid_dpop_proof` (the proof is missing, malformed, for
   * another request, too old, from another key or a replay), `use_dpop_nonce` (no recent nonce),
   * or what `verify` threw; anything else when the replay cache fails (the handler answers 500).
   */
  async authenticate(
    req: HttpRequestIn,
    sink: ResponseSink,
    token: string,
    verify: (token: string) => Promise<AuthInfo>,
  ): Promise<AuthInfo> {
    const proof = await this.checkProof(req, sink, token);
    const auth = await verify(token);
    const bound = boundKeyOf(auth);
    if (bound === undefined) throw new BearerTokenError('invalid_token', 'the token is not bound to a DPoP key');
    if (bound !== proof.jkt)
      throw new BearerTokenError(
        'invalid_dpop_proof',
        'the DPoP proof is not signed with the key the token is bound to',
      );
    // Recorded last, so only proofs that passed every check take room; kept as long as its iat is acceptable.
    const expiresAt = (proof.iat + this.maxAgeSec + this.clockToleranceSec + 1) * 1000;
    if (await this.replayCache.seen(`${proof.jkt}.${proof.jti}`, expiresAt))
      throw new BearerTokenError('invalid_dpop_proof', 'the DPoP proof has been used before');
    return auth;
  }

  private async checkProof(req: HttpRequestIn, sink: ResponseSink, token: string): Promise<CheckedProof> {
    const header = req.header('dpop');
    if (header === undefined) throw new BearerTokenError('invalid_dpop_proof', 'a DPoP proof header is required');
    // A runtime that joins repeated headers with ", " hands two proofs over as one value: not a compact JWS.
    if (header.length > MAX_PROOF_CHARS || !COMPACT_JWS.test(header))
      throw new BearerTokenError('invalid_dpop_proof', 'the request must carry exactly one DPoP proof, a compact JWT');
    const jose = await import('jose');
    let payload: JWTPayload;
    let jwk: Parameters<typeof jose.calculateJwkThumbprint>[0];
    try {
      const verified = await jose.jwtVerify(header, jose.EmbeddedJWK, {
        typ: 'dpop+jwt',
        algorithms: [...this.algorithms],
        maxTokenAge: this.maxAgeSec,
        clockTolerance: this.clockToleranceSec,
        requiredClaims: ['jti', 'htm', 'htu', 'iat'],
      });
      payload = verified.payload;
      jwk = verified.protectedHeader.jwk!;
    } catch (error) {
      throw proofRefusal(error);
    }
    if (payload.htm !== req.method)
      throw new BearerTokenError('invalid_dpop_proof', "the DPoP proof's htm is not this request's method");
    if (typeof payload.htu !== 'string' || urlWithoutQuery(payload.htu) !== this.htu)
      throw new BearerTokenError('invalid_dpop_proof', "the DPoP proof's htu is not this resource's URL");
    if (payload.ath !== (await tokenHash(token)))
      throw new BearerTokenError('invalid_dpop_proof', "the DPoP proof's ath is not the hash of this token");
    const jti = payload.jti;
    if (typeof jti !== 'string' || jti === '' || jti.length > MAX_JTI_CHARS)
      throw new BearerTokenError('invalid_dpop_proof', "the DPoP proof's jti must be a string of 1 to 256 characters");
    if (this.nonces) {
      const state = await this.nonces.check(payload.nonce);
      if (state === 'invalid')
        throw new BearerTokenError('use_dpop_nonce', 'the resource server requires a recent nonce in the DPoP proof');
      // The next nonce goes out before this one stops being accepted (RFC 9449 §8.2).
      if (state === 'stale') sink.setHeader('dpop-nonce', await this.nonces.current());
    }
    return { jkt: await jose.calculateJwkThumbprint(jwk, 'sha256'), jti, iat: payload.iat! };
  }
}

/** The `cnf.jkt` of a verified token: the thumbprint of the key it is bound to (RFC 9449 §6.1). */
export function boundKeyOf(auth: AuthInfo): string | undefined {
  const cnf = auth.claims?.cnf;
  if (typeof cnf !== 'object' || cnf === null) return undefined;
  const jkt = (cnf as { jkt?: unknown }).jkt;
  return typeof jkt === 'string' ? jkt : undefined;
}

/** The `ath` a proof for `token` carries: base64url of the SHA-256 of its ASCII (RFC 9449 §4.2). */
async function tokenHash(token: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return base64urlFromBytes(new Uint8Array(digest));
}

/** `scheme://host[:port]/path`, normalised by the URL parser (RFC 9449 §4.3), or undefined when no URL. */
function urlWithoutQuery(url: string | URL): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return undefined;
  }
}

function seconds(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new McpError('INVALID_ARGUMENT', `auth.dpop "${name}" must be a number of seconds, not negative`);
  return value;
}

/** A jose failure of the proof as a refusal naming what was wrong (never the proof). */
function proofRefusal(error: unknown): BearerTokenError {
  const code = (error as { code?: unknown } | null)?.code;
  const claim = (error as { claim?: unknown } | null)?.claim;
  const reason = (text: string): BearerTokenError =>
    new BearerTokenError('invalid_dpop_proof', `the DPoP proof ${text}`);
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return reason('is too old (iat)');
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (claim === 'iat') return reason('is issued in the future (iat)');
      if (claim === 'typ') return reason('is not of type dpop+jwt');
      return reason(`lacks a valid "${typeof claim === 'string' ? claim.slice(0, 40) : 'claim'}" claim`);
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return reason('signature does not verify');
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return reason('is signed with an algorithm this server does not accept');
    default:
      return reason('is not a valid JWT with a public key in its header');
  }
}
