/**
 * The resource-server half of MCP authorization in the HTTP handler: Protected Resource Metadata
 * served at its well-known paths, the access token read from the `Authorization` header only
 * (never a query string or a body), checked by the caller's verifier, and refusals answered as
 * RFC 6750 says: `401` with `WWW-Authenticate: Bearer resource_metadata="…", scope="…"` (plus
 * `error="invalid_token"` for a token that was refused), `403 error="insufficient_scope"` naming
 * the scopes needed. With `dpop`, DPoP-bound tokens too (RFC 9449, `dpop-check.ts`): presented as
 * `Authorization: DPoP` with a proof, refused with a `DPoP` challenge (`algs`, and
 * `invalid_dpop_proof` or `use_dpop_nonce`); a request without a token is offered both schemes,
 * or only `DPoP` when it is required. No token, nor any header value, ever reaches a response,
 * an error or a log.
 */
import { errorMessage, McpError } from '../../../protocol/errors.js';
import { makeErrorResponse, RpcErrorCode, type JsonRpcRequest } from '../../../protocol/jsonrpc.js';
import type { AuthInfo } from '../../auth-info.js';
import type { ServerLogger } from '../../server-types.js';
import type { RegisteredTool, ToolSet } from '../../tools/tool-set.js';
import type { HttpRequestIn, ResponseSink } from '../../../transport/http-server/http-exchange.js';
import { BearerTokenError, type BearerErrorCode } from './bearer-error.js';
import { boundKeyOf, DpopCheck, type DpopOptions } from './dpop-check.js';
import {
  resourceMetadataDocument,
  resourceMetadataPaths,
  resourceMetadataUrl,
  type ResourceMetadataOptions,
} from './resource-metadata.js';

/** What a verifier is told beside the token. */
export interface TokenVerifyContext {
  /** The canonical URL of this MCP endpoint: the audience a token must be for (RFC 8707). */
  readonly resource: string;
  /**
   * The HTTP request (read its headers with `request.header(name)` for checks of your own; never
   * log `authorization`).
   */
  readonly request: HttpRequestIn;
}

/**
 * Checks one access token and says who it is for. Throws {@link BearerTokenError} to refuse it
 * (`invalid_token` → 401, `insufficient_scope` → 403); any other error answers 500 (logged,
 * the token masked). Must not put the token in what it throws. A token bound to a DPoP key says
 * so in `claims.cnf.jkt` (as {@link jwtBearer}'s do): the handler then takes it only with a proof
 * signed by that key.
 */
export interface TokenVerifier {
  (token: string, context: TokenVerifyContext): Promise<AuthInfo>;
  /**
   * Ends what the verifier holds open (connections to the key server); the handler's `close()`
   * calls it. The verifier stays usable (it connects again when it must). Never rejects.
   */
  close?(): Promise<void>;
}

/** The `auth` option of `createHttpHandler`: the endpoint is an OAuth 2.1 protected resource. */
export interface HttpAuthOptions extends ResourceMetadataOptions {
  /** Checks each request's bearer token (e.g. {@link jwtBearer}). */
  verifyToken: TokenVerifier;
  /**
   * Scopes every request needs (a token without one of them: 403 `insufficient_scope`); also the
   * `scope` of the 401 challenge (default: `scopesSupported`). Tools may need more
   * (`ToolDefinition.requiredScopes`).
   */
  requiredScopes?: readonly string[];
  /**
   * Accept DPoP-bound access tokens (RFC 9449): proofs checked, nonces issued, replays refused.
   * The metadata then lists `dpop_signing_alg_values_supported` and
   * `dpop_bound_access_tokens_required`. Default: Bearer tokens only (a DPoP-bound one refused).
   */
  dpop?: DpopOptions;
}

const AUTH_KEYS = new Set([
  'resource',
  'authorizationServers',
  'scopesSupported',
  'resourceName',
  'resourceDocumentation',
  'verifyToken',
  'requiredScopes',
  'dpop',
]);
const CREDENTIALS = /^(bearer|dpop)[ ]+([A-Za-z0-9\-._~+/]+=*)[ ]*$/i;

/** The scheme a request presented its token with. */
type Scheme = 'Bearer' | 'DPoP';

/** One handler's bearer check. */
export class BearerGate {
  private readonly metadataPaths: Set<string>;
  private readonly metadataBody: string;
  private readonly metadataLength: string;
  private readonly metadataUrl: string;
  private readonly requiredScopes: readonly string[];
  private readonly challengeScopes: readonly string[];
  private readonly dpop: DpopCheck | undefined;
  /** The scheme each request being handled presented its token with (a refusal answers in it). */
  private readonly schemeOf = new WeakMap<ResponseSink, Scheme>();

  /**
   * Throws `INVALID_ARGUMENT` for an unknown key, a resource that is not an absolute URL without fragment, or no
   * authorization server.
   */
  constructor(
    private readonly options: HttpAuthOptions,
    private readonly logger: ServerLogger,
  ) {
    for (const key of Object.keys(options))
      if (!AUTH_KEYS.has(key)) throw new McpError('INVALID_ARGUMENT', `unknown HTTP handler auth option "${key}"`);
    if (typeof options.verifyToken !== 'function')
      throw new McpError('INVALID_ARGUMENT', 'HTTP handler auth option "verifyToken" must be a function');
    if (!Array.isArray(options.authorizationServers) || options.authorizationServers.length === 0)
      throw new McpError(
        'INVALID_ARGUMENT',
        'HTTP handler auth option "authorizationServers" must name at least one issuer',
      );
    let resource: URL;
    try {
      resource = new URL(options.resource);
    } catch {
      throw new McpError(
        'INVALID_ARGUMENT',
        'HTTP handler auth option "resource" must be an absolute URL (the canonical URL of the MCP endpoint)',
      );
    }
    if (resource.hash !== '' || options.resource.includes('#'))
      throw new McpError(
        'INVALID_ARGUMENT',
        `HTTP handler auth option "resource" must have no fragment: ${resource.origin}${resource.pathname}`,
      );
    this.dpop = options.dpop === undefined ? undefined : new DpopCheck(options.dpop, resource);
    this.metadataPaths = new Set(resourceMetadataPaths(resource));
    this.metadataBody = JSON.stringify(resourceMetadataDocument(options, this.dpop));
    this.metadataLength = String(byteLength(this.metadataBody));
    this.metadataUrl = resourceMetadataUrl(resource);
    this.requiredScopes = options.requiredScopes ?? [];
    this.challengeScopes = options.requiredScopes ?? options.scopesSupported ?? [];
  }

  /**
   * Answers a GET or HEAD of a metadata path (`path`: the target's path, without query) and
   * returns true (any other method there: 405), or leaves the request alone and returns false.
   */
  serveMetadata(req: HttpRequestIn, sink: ResponseSink, path: string): boolean {
    if (!this.metadataPaths.has(path)) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sink.send(405, { allow: 'GET, HEAD', 'content-length': '0' });
      return true;
    }
    // Browser-based clients read it cross-origin (RFC 9728 §3); it holds nothing secret.
    const headers = {
      'content-type': 'application/json',
      'content-length': this.metadataLength,
      'cache-control': 'max-age=300',
      'access-control-allow-origin': '*',
    };
    if (req.method === 'HEAD') sink.send(200, headers);
    else sink.send(200, headers, this.metadataBody);
    return true;
  }

  /** The request's verified auth info, or undefined once it has been answered 401/403/500. Never rejects. */
  async check(req: HttpRequestIn, sink: ResponseSink): Promise<AuthInfo | undefined> {
    const header = req.header('authorization');
    const scheme = /^(bearer|dpop)(?: |$)/i.exec(header ?? '')?.[1]?.toLowerCase();
    if (scheme === undefined || (scheme === 'dpop' && !this.dpop)) {
      this.refuse(
        sink,
        401,
        undefined,
        `Unauthorized: ${this.dpop ? 'an access token' : 'a bearer token'} is required`,
      );
      return undefined;
    }
    this.schemeOf.set(sink, scheme === 'dpop' ? 'DPoP' : 'Bearer');
    const token = CREDENTIALS.exec(header!)?.[2];
    if (token === undefined) {
      this.refuse(sink, 401, 'invalid_token', 'Unauthorized: the access token is malformed');
      return undefined;
    }
    let auth: AuthInfo;
    try {
      auth = await this.authenticate(req, sink, scheme === 'dpop', token);
    } catch (error) {
      if (error instanceof BearerTokenError) {
        if (error.bearerError === 'insufficient_scope')
          this.refuse(
            sink,
            403,
            'insufficient_scope',
            'Forbidden: the token lacks a scope this server needs',
            union(this.challengeScopes, error.requiredScopes),
          );
        else {
          const nonce = error.bearerError === 'use_dpop_nonce' ? await this.dpop?.freshNonce() : undefined;
          this.refuse(
            sink,
            401,
            error.bearerError,
            `Unauthorized: ${masked(error.reason, token)}`,
            this.challengeScopes,
            nonce,
          );
        }
        return undefined;
      }
      this.logger({
        level: 'error',
        msg: 'the bearer token check failed',
        url: pathOnly(req.target),
        error: masked(errorMessage(error), token),
      });
      this.refuse(sink, 500, undefined, 'Internal Server Error: the access token could not be checked');
      return undefined;
    }
    const missing = this.requiredScopes.filter((scope) => !auth.scopes.includes(scope));
    if (missing.length > 0) {
      this.refuse(
        sink,
        403,
        'insufficient_scope',
        'Forbidden: the token lacks a scope this server needs',
        this.requiredScopes,
      );
      return undefined;
    }
    return auth;
  }

  /**
   * The first tool call among `requests` whose tool needs a scope the token lacks is refused
   * (403) before anything runs. Returns true when it answered. A tool `shown` says the request's
   * client is not shown (an app-only tool, to a client without apps) is unknown to it: its scopes
   * are not checked, so the call is the method's -32602, as for an unknown tool, and no 403 tells
   * that it exists.
   */
  refuseToolCalls(
    sink: ResponseSink,
    auth: AuthInfo | undefined,
    requests: readonly JsonRpcRequest[],
    tools: ToolSet,
    shown: (request: JsonRpcRequest, tool: RegisteredTool) => boolean = () => true,
  ): boolean {
    for (const request of requests) {
      const params = request.params;
      if (request.method !== 'tools/call' || !params || Array.isArray(params) || typeof params.name !== 'string')
        continue;
      const tool = tools.get(params.name);
      if (!tool || !shown(request, tool)) continue;
      if (this.refuseToolScopes(sink, auth, params.name, tool.definition.requiredScopes)) return true;
    }
    return false;
  }

  /**
   * A 403 `insufficient_scope` for a tool call whose tool needs scopes the token lacks (true:
   * answered), checked before the handler runs. The challenge names every scope the call needs.
   */
  refuseToolScopes(
    sink: ResponseSink,
    auth: AuthInfo | undefined,
    toolName: string,
    toolScopes: readonly string[] | undefined,
  ): boolean {
    if (!auth || !toolScopes || toolScopes.every((scope) => auth.scopes.includes(scope))) return false;
    this.refuse(
      sink,
      403,
      'insufficient_scope',
      `Forbidden: tool "${toolName}" needs a scope the token lacks`,
      union(this.requiredScopes, toolScopes),
    );
    return true;
  }

  /** Ends what the verifier holds open (its key server connections). Never rejects. */
  async close(): Promise<void> {
    await Promise.resolve()
      .then(() => this.options.verifyToken.close?.())
      .catch(() => undefined);
  }

  /** The token's facts: a Bearer token must not be DPoP-bound; a DPoP one needs its proof. */
  private async authenticate(req: HttpRequestIn, sink: ResponseSink, dpop: boolean, token: string): Promise<AuthInfo> {
    const verify = (presented: string): Promise<AuthInfo> =>
      this.options.verifyToken(presented, { resource: this.options.resource, request: req });
    if (dpop) return this.dpop!.authenticate(req, sink, token, verify);
    if (this.dpop?.required)
      throw new BearerTokenError('invalid_token', 'this server takes only DPoP-bound tokens, with a DPoP proof');
    const auth = await verify(token);
    // A bound token used as a bearer one is a stolen token's first use (RFC 9449 §7.2).
    if (boundKeyOf(auth) !== undefined)
      throw new BearerTokenError(
        'invalid_token',
        'the token is DPoP-bound: present it with the DPoP scheme and a proof',
      );
    return auth;
  }

  /** Answers the refusal (the `use_dpop_nonce` one once its fresh nonce is computed). */
  private refuse(
    sink: ResponseSink,
    status: 401 | 403 | 500,
    error: BearerErrorCode | undefined,
    message: string,
    scopes: readonly string[] = this.challengeScopes,
    nonce?: string,
  ): void {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (status !== 500) headers['www-authenticate'] = this.challenge(this.schemeOf.get(sink), error, scopes);
    if (nonce !== undefined) headers['dpop-nonce'] = nonce;
    const body = JSON.stringify(makeErrorResponse(null, RpcErrorCode.InvalidRequest, message));
    headers['content-length'] = String(byteLength(body));
    sink.send(status, headers, body);
  }

  /**
   * The `WWW-Authenticate` value: in the scheme the token came in (`DPoP` for every answer when it
   * is required), or both schemes for a request without one when DPoP is accepted beside Bearer.
   */
  private challenge(scheme: Scheme | undefined, error: BearerErrorCode | undefined, scopes: readonly string[]): string {
    const params = [`resource_metadata=${quoted(this.metadataUrl)}`];
    if (scopes.length > 0) params.push(`scope=${quoted(scopes.join(' '))}`);
    const errorParam = error ? [`error=${quoted(error)}`] : [];
    const bearer = `Bearer ${[...params, ...errorParam].join(', ')}`;
    if (!this.dpop) return bearer;
    const dpop = `DPoP ${[...params, `algs=${quoted(this.dpop.algorithms.join(' '))}`, ...errorParam].join(', ')}`;
    if (scheme === 'DPoP' || this.dpop.required) return dpop;
    return scheme === 'Bearer' ? bearer : `${bearer}, ${dpop}`;
  }
}

/** RFC 9110 quoted-string. */
function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

/** A verifier's text with the token masked, in case a hand-written one quoted it. */
function masked(text: string, token: string): string {
  return text.split(token).join('***');
}

/** The UTF-8 length of `text`: its `Content-Length`. */
function byteLength(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

function pathOnly(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}
