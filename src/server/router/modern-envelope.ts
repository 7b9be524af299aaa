/**
 * The 2026 `_meta` envelope of a modern request: the revision it claims, the facts it carries
 * (revision, client capabilities and info, log level), and the fault it gets when they are
 * missing or wrong (-32602; -32022 with the supported list for a revision we do not speak, the
 * requested value quoted bounded). Streamable HTTP answers these with status 400.
 */
import type { JsonRpcMessage, JsonRpcRequest } from '../../protocol/jsonrpc.js';
import { RpcErrorCode } from '../../protocol/jsonrpc.js';
import { META_KEYS } from '../../protocol/meta-keys.js';
import { MODERN_REVISIONS, type ProtocolRevision } from '../../protocol/revisions.js';
import type { ClientCapabilities, Implementation, Meta } from '../../protocol/types.js';
import { peerText, sampleValue } from '../../protocol/value-sample.js';
import { isObject, type Params, type RequestFacts } from './method-table.js';
import { faultAnswer, RequestFault } from './request-fault.js';
import { isLoggingLevel } from './request-link.js';

const META_VERSION = META_KEYS.protocolVersion;
const META_CAPABILITIES = META_KEYS.clientCapabilities;
const META_CLIENT_INFO = META_KEYS.clientInfo;
const META_LOG_LEVEL = META_KEYS.logLevel;

/** The fault of a modern request (`method`) whose `_meta` lacks a revision or names one we do not serve per request. */
export function envelopeFault(method: string, meta: Meta | undefined): RequestFault {
  const version = meta?.[META_VERSION];
  if (version === undefined) return RequestFault.invalidParams(`${method} needs params._meta["${META_VERSION}"]`);
  return new RequestFault(RpcErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', {
    supported: [...MODERN_REVISIONS],
    requested: quoted(version),
  });
}

/**
 * The peer's value as a bounded string for an error's `data` (the schema's `requested` is a
 * string): a string cut to `PEER_TEXT_CHARS`, anything else as a JSON sample. Never throws,
 * whatever its depth or size, so the answer carrying it can always be written.
 */
function quoted(value: unknown): string {
  return typeof value === 'string' ? peerText(value) : sampleValue(value);
}

/**
 * The error a request with a modern revision in `_meta` gets for its envelope alone (missing
 * capabilities, an unsupported revision, a bad log level), or undefined when the envelope is
 * good. Streamable HTTP answers these with status 400.
 */
export function modernEnvelopeProblem(request: JsonRpcRequest): JsonRpcMessage | undefined {
  const params: Params = request.params && !Array.isArray(request.params) ? request.params : {};
  const meta = isObject(params._meta) ? (params._meta as Meta) : undefined;
  try {
    if (!meta) throw envelopeFault(request.method, meta);
    readModern(request.method, meta);
    return undefined;
  } catch (error) {
    if (error instanceof RequestFault) return faultAnswer(request.id, error);
    throw error;
  }
}

/** The revision a request claims in `_meta`, if any. */
export function claimedRevision(request: JsonRpcRequest): unknown {
  const params = request.params && !Array.isArray(request.params) ? request.params : undefined;
  return isObject(params?._meta) ? (params._meta as Meta)[META_VERSION] : undefined;
}

/** The client capabilities a request's `_meta` carries, when they are an object (unchecked otherwise). */
export function claimedCapabilities(request: JsonRpcRequest): ClientCapabilities | undefined {
  const params = request.params && !Array.isArray(request.params) ? request.params : undefined;
  const capabilities = isObject(params?._meta) ? (params._meta as Meta)[META_CAPABILITIES] : undefined;
  return isObject(capabilities) ? capabilities : undefined;
}

/** The facts of a modern request (`method`) read from its `_meta`; throws the envelope's fault when they are wrong. */
export function readModern(method: string, meta: Meta): RequestFacts {
  const version = meta[META_VERSION];
  if (!(MODERN_REVISIONS as readonly unknown[]).includes(version)) throw envelopeFault(method, meta);
  const capabilities = meta[META_CAPABILITIES];
  if (!isObject(capabilities))
    throw RequestFault.invalidParams(`${method} needs params._meta["${META_CAPABILITIES}"] (an object; {} for none)`);
  const logLevel = meta[META_LOG_LEVEL];
  if (logLevel !== undefined && !isLoggingLevel(logLevel))
    throw RequestFault.invalidParams(`params._meta["${META_LOG_LEVEL}"] is not a log level`);
  const clientInfo = meta[META_CLIENT_INFO];
  return {
    revision: version as ProtocolRevision,
    clientCapabilities: capabilities,
    clientInfo: isObject(clientInfo) ? (clientInfo as unknown as Implementation) : undefined,
    logLevel,
  };
}
