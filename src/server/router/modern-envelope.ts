/**
 * The 2026 `_meta` envelope of a modern request: the revision it claims, the facts it carries
 * (revision, client capabilities and info, log level), and the error it gets when they are
 * missing or wrong (-32602; -32022 with the supported list for a revision we do not speak, the
 * requested value quoted bounded). Streamable HTTP answers these with status 400.
 */
import { makeErrorResponse, RpcErrorCode, type JsonRpcMessage, type JsonRpcRequest } from '../../protocol/jsonrpc.js';
import { META_KEYS } from '../../protocol/meta-keys.js';
import { MODERN_REVISIONS, type ProtocolRevision } from '../../protocol/revisions.js';
import type { ClientCapabilities, Implementation, LoggingLevel, Meta } from '../../protocol/types.js';
import { peerText, sampleValue } from '../../protocol/value-sample.js';
import { isLoggingLevel } from './request-link.js';

const META_VERSION = META_KEYS.protocolVersion;
const META_CAPABILITIES = META_KEYS.clientCapabilities;
const META_CLIENT_INFO = META_KEYS.clientInfo;
const META_LOG_LEVEL = META_KEYS.logLevel;

/** The per-request facts of a modern request, read from its `_meta`. */
export interface ModernRequest {
  revision: ProtocolRevision;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  logLevel: LoggingLevel | undefined;
}

type Params = Record<string, unknown>;

/** The error of a modern request whose `_meta` is missing, incomplete or names a revision we do not speak. */
export function modernEnvelopeError(request: JsonRpcRequest, meta: Meta | undefined): JsonRpcMessage {
  const version = meta?.[META_VERSION];
  if (version === undefined)
    return makeErrorResponse(
      request.id,
      RpcErrorCode.InvalidParams,
      `${request.method} needs params._meta["${META_VERSION}"]`,
    );
  return makeErrorResponse(request.id, RpcErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', {
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
  if (!meta) return modernEnvelopeError(request, meta);
  const facts = readModern(request, meta);
  return 'jsonrpc' in facts ? facts : undefined;
}

/** The revision a request claims in `_meta`, if any. */
export function claimedRevision(request: JsonRpcRequest): unknown {
  const params = request.params && !Array.isArray(request.params) ? request.params : undefined;
  return isObject(params?._meta) ? (params._meta as Meta)[META_VERSION] : undefined;
}

export function readModern(request: JsonRpcRequest, meta: Meta): ModernRequest | JsonRpcMessage {
  const version = meta[META_VERSION];
  if (!(MODERN_REVISIONS as readonly unknown[]).includes(version)) return modernEnvelopeError(request, meta);
  const capabilities = meta[META_CAPABILITIES];
  if (!isObject(capabilities))
    return makeErrorResponse(
      request.id,
      RpcErrorCode.InvalidParams,
      `${request.method} needs params._meta["${META_CAPABILITIES}"] (an object; {} for none)`,
    );
  const logLevel = meta[META_LOG_LEVEL];
  if (logLevel !== undefined && !isLoggingLevel(logLevel))
    return makeErrorResponse(
      request.id,
      RpcErrorCode.InvalidParams,
      `params._meta["${META_LOG_LEVEL}"] is not a log level`,
    );
  const clientInfo = meta[META_CLIENT_INFO];
  return {
    revision: version as ProtocolRevision,
    clientCapabilities: capabilities,
    clientInfo: isObject(clientInfo) ? (clientInfo as unknown as Implementation) : undefined,
    logLevel,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
