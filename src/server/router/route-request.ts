/**
 * Answers one inbound request, in the era it belongs to, from that era's method table
 * (`legacy-methods.ts`, `modern-methods.ts`, both holding `shared-methods.ts`):
 * - a request with a 2026 envelope (`params._meta` names a revision) is modern on any
 *   connection, whatever its method (`initialize` is then a removed method, -32601) and whatever
 *   revision it names (one we do not serve per request is -32022 with the supported list);
 * - `initialize` makes the connection's legacy session; a request without the envelope is legacy
 *   when the connection has one, else refused (it must initialize or carry `_meta`), `ping` aside.
 * The runner here is the one place results and faults become JSON-RPC messages: a 2026 result
 * gets `resultType` (default `complete`) and the server's info in `_meta`; a `RequestFault` is the
 * error it names; an `INVALID_ARGUMENT` from the kit's sets (a bad cursor) is -32602; anything
 * else is logged and answered -32603 `Internal error`.
 */
import { McpError } from '../../protocol/errors.js';
import { makeResponse, RpcErrorCode, type JsonRpcMessage, type JsonRpcRequest } from '../../protocol/jsonrpc.js';
import { META_KEYS } from '../../protocol/meta-keys.js';
import type { Era } from '../../protocol/revisions.js';
import type { Meta } from '../../protocol/types.js';
import { isStateUnavailable } from '../state/state-unavailable.js';
import { initialize, LEGACY_METHODS } from './legacy-methods.js';
import {
  handlerOf,
  isObject,
  type MethodCall,
  type MethodHandler,
  type MethodResult,
  type MethodTable,
  type Params,
} from './method-table.js';
import { clientDeclares, extensionRequired } from '../extensions/extension-list.js';
import { envelopeFault, readModern } from './modern-envelope.js';
import { MODERN_METHODS } from './modern-methods.js';
import { faultAnswer, RequestFault } from './request-fault.js';
import type { RequestLink } from './request-link.js';
import type { ServerCore } from './server-core.js';

export { claimedRevision, modernEnvelopeProblem } from './modern-envelope.js';
export type { ServerCore } from './server-core.js';

const META_VERSION = META_KEYS.protocolVersion;
const META_SERVER_INFO = META_KEYS.serverInfo;

/**
 * Answers `request`: resolves with its response or error response. Rejects only with
 * `STATE_UNAVAILABLE` (a shared store out of reach): the transport answers that in its own way
 * (Streamable HTTP: 503 with `Retry-After`; a message transport: `stateUnavailableAnswer`).
 */
export async function routeRequest(
  core: ServerCore,
  request: JsonRpcRequest,
  link: RequestLink,
): Promise<JsonRpcMessage> {
  const params: Params = request.params && !Array.isArray(request.params) ? request.params : {};
  const meta = isObject(params._meta) ? (params._meta as Meta) : undefined;
  try {
    if (meta?.[META_VERSION] !== undefined) {
      const call: MethodCall = { core, request, link, facts: readModern(request.method, meta) };
      return makeResponse(request.id, modernResult(core, await run(MODERN_METHODS, 'modern', params, call)));
    }
    if (request.method === 'initialize') return makeResponse(request.id, initialize(params, { core, link }));
    if (request.method === 'server/discover') throw envelopeFault(request.method, meta);
    const session = link.legacy;
    if (session) {
      const { revision, clientCapabilities, clientInfo, logLevel } = session;
      const call: MethodCall = { core, request, link, facts: { revision, clientCapabilities, clientInfo, logLevel } };
      return makeResponse(request.id, await run(LEGACY_METHODS, 'legacy', params, call));
    }
    if (request.method === 'ping') return makeResponse(request.id, {});
    throw RequestFault.invalidParams(
      `${request.method} needs params._meta["${META_VERSION}"] (2026-07-28) or an initialize handshake first`,
    );
  } catch (error) {
    if (error instanceof RequestFault) return faultAnswer(request.id, error);
    if (isStateUnavailable(error)) throw error;
    if (error instanceof McpError && error.code === 'INVALID_ARGUMENT')
      return faultAnswer(request.id, RequestFault.invalidParams(error.reason));
    core.logger({
      level: 'error',
      msg: 'request failed',
      method: request.method,
      error: error instanceof Error ? error.message : 'a non-Error value',
      ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
    });
    return faultAnswer(request.id, new RequestFault(RpcErrorCode.InternalError, 'Internal error'));
  }
}

/**
 * Runs the handler of the call's method in `table`, else of the extension of `era` that has it
 * (-32021 when that extension needs the client's declaration and the request lacks it); -32601
 * when none has it.
 */
function run(table: MethodTable, era: Era, params: Params, call: MethodCall): MethodResult | Promise<MethodResult> {
  const method = call.request.method;
  const own = handlerOf(table, method);
  if (own) return own(params, call);
  const found = call.core.extensions.route(method, era);
  if (!found) throw RequestFault.methodNotFound(method);
  const { extension, handler } = found;
  if (extension.clientMustDeclare && !clientDeclares(call.facts.clientCapabilities, extension.id))
    throw extensionRequired(extension.id, method);
  return (handler as MethodHandler)(params, call);
}

/** A 2026 result: `resultType` (`complete` unless the handler said otherwise) and the server's info in `_meta`. */
function modernResult(core: ServerCore, result: MethodResult): MethodResult {
  return {
    resultType: 'complete',
    ...result,
    _meta: { ...(result._meta as Meta | undefined), [META_SERVER_INFO]: core.info },
  };
}
