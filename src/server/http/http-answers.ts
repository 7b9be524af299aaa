/**
 * Small pieces of the HTTP handler's answers: a refusal with a JSON-RPC error body, the status of
 * an answer in each era, and reading a request's header, path and numeric options.
 */
import { McpError } from '../../protocol/errors.js';
import { makeErrorResponse, RpcErrorCode, type JsonRpcId, type JsonRpcMessage } from '../../protocol/jsonrpc.js';
import { eraOf } from '../../protocol/revisions.js';
import type { HttpRequestIn, Refusal, ResponseSink } from '../../transport/http-server/http-exchange.js';

/** Errors of the 2026 envelope and headers: answered with 400. */
const BAD_REQUEST_CODES = new Set<number>([
  RpcErrorCode.HeaderMismatch,
  RpcErrorCode.MissingRequiredClientCapability,
  RpcErrorCode.UnsupportedProtocolVersion,
]);

/** An HTTP refusal with a JSON-RPC error body (id null unless known). */
export function refuse(
  sink: ResponseSink,
  refusal: Refusal,
  headers: Readonly<Record<string, string>> = {},
  code: number = RpcErrorCode.InvalidRequest,
  id: JsonRpcId | null = null,
): void {
  const body = JSON.stringify(makeErrorResponse(id, code, refusal.message));
  sink.send(refusal.status, { ...headers, 'content-type': 'application/json' }, body);
}

/** 2026: the envelope and header errors are 400, an unknown method 404, anything else 200. */
export function statusOf(answer: JsonRpcMessage): number {
  if (!('error' in answer)) return 200;
  const code = answer.error.code;
  if (BAD_REQUEST_CODES.has(code)) return 400;
  return code === RpcErrorCode.MethodNotFound ? 404 : 200;
}

/** Legacy: JSON-RPC errors travel with 200, except a refused handshake. */
export function legacyStatusOf(answer: JsonRpcMessage): number {
  return 'error' in answer && answer.error.code === RpcErrorCode.InvalidRequest ? 400 : 200;
}

/** True when `MCP-Protocol-Version` names a 2026-era revision: the request is then held to the 2026 rules. */
export function modernHeader(req: HttpRequestIn): boolean {
  const version = req.header('mcp-protocol-version');
  return version !== undefined && eraOf(version) === 'modern';
}

export function pathOf(raw: string): string {
  const end = raw.search(/[?#]/);
  return end === -1 ? raw : raw.slice(0, end);
}

/** A positive number option, or `fallback`; throws `INVALID_ARGUMENT` for anything else. */
export function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new McpError('INVALID_ARGUMENT', `HTTP handler option "${name}" must be a positive number`);
  return value;
}
