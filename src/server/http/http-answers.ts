/**
 * Small pieces of the HTTP handler's answers: a refusal with a JSON-RPC error body, the status of
 * an answer in each era, and reading a request's header, path and numeric options.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpError } from '../../protocol/errors.js';
import { makeErrorResponse, RpcErrorCode, type JsonRpcId, type JsonRpcMessage } from '../../protocol/jsonrpc.js';
import { eraOf } from '../../protocol/revisions.js';
import type { Refusal } from './request-guards.js';

/** Errors of the 2026 envelope and headers: answered with 400. */
const BAD_REQUEST_CODES = new Set<number>([
  RpcErrorCode.HeaderMismatch,
  RpcErrorCode.MissingRequiredClientCapability,
  RpcErrorCode.UnsupportedProtocolVersion,
]);

/** An HTTP refusal with a JSON-RPC error body (id null unless known). */
export function refuse(
  res: ServerResponse,
  refusal: Refusal,
  headers: Record<string, string> = {},
  code: number = RpcErrorCode.InvalidRequest,
  id: JsonRpcId | null = null,
): void {
  const body = JSON.stringify(makeErrorResponse(id, code, refusal.message));
  res.writeHead(refusal.status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
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

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** True when `MCP-Protocol-Version` names a 2026-era revision: the request is then held to the 2026 rules. */
export function modernHeader(req: IncomingMessage): boolean {
  const version = header(req, 'mcp-protocol-version');
  return version !== undefined && eraOf(version) === 'modern';
}

export function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
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
