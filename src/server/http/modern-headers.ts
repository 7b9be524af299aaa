/**
 * The 2026-07-28 Streamable HTTP header rules a server checks: `MCP-Protocol-Version` equals the
 * body's `_meta` revision, `Mcp-Method` equals the method, `Mcp-Name` equals `params.name` (or
 * `uri`), and each `Mcp-Param-*` equals the argument its tool marks with `x-mcp-header`. A missing
 * or disagreeing header is -32020 (HeaderMismatch), answered with 400.
 */
import type { JsonRpcRequest } from '../../protocol/jsonrpc.js';
import { decodeHeaderValue, encodeHeaderValue } from '../../transport/http/header-values.js';
import type { JsonSchema } from '../../protocol/types.js';
import type { HttpRequestIn } from '../../transport/http-server/http-exchange.js';

const TASK_METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/**
 * What is wrong with the headers (the message names the header, never a value), or undefined.
 * `revision` is the body's `_meta` revision as sent: a value that is no string matches no header.
 */
export function headerMismatch(
  req: HttpRequestIn,
  request: JsonRpcRequest,
  revision: unknown,
  inputSchema: JsonSchema | undefined,
): string | undefined {
  const version = req.header('mcp-protocol-version');
  if (version === undefined) return 'the MCP-Protocol-Version header is missing';
  if (version !== revision) return 'the MCP-Protocol-Version header does not match params._meta';
  const method = req.header('mcp-method');
  if (method === undefined) return 'the Mcp-Method header is missing';
  if (method !== request.method) return 'the Mcp-Method header does not match the method';
  const params = request.params && !Array.isArray(request.params) ? request.params : {};
  const named =
    request.method === 'resources/read'
      ? params.uri
      : request.method === 'tools/call' || request.method === 'prompts/get'
        ? params.name
        : undefined;
  if (typeof named === 'string') {
    const name = req.header('mcp-name');
    if (name === undefined) return 'the Mcp-Name header is missing';
    if (!wellEncoded(name) || decodeHeaderValue(name) !== named) return 'the Mcp-Name header does not match the body';
  }
  // Tasks extension (SEP-2663): tasks/get|update|cancel name their task in Mcp-Name; a client that
  // leaves it out is served, one that sends another id is refused.
  if (TASK_METHODS.has(request.method) && typeof params.taskId === 'string') {
    const name = req.header('mcp-name');
    if (name !== undefined && (!wellEncoded(name) || decodeHeaderValue(name) !== params.taskId))
      return 'the Mcp-Name header does not match the body';
  }
  if (request.method === 'tools/call' && inputSchema) return paramMismatch(req, inputSchema, params.arguments);
  return undefined;
}

/** Top-level `x-mcp-header` properties: present values need their header, equal once decoded. */
function paramMismatch(req: HttpRequestIn, schema: JsonSchema, args: unknown): string | undefined {
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (!properties || typeof properties !== 'object') return undefined;
  const values = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  for (const [key, property] of Object.entries(properties)) {
    const header = property?.['x-mcp-header'];
    if (typeof header !== 'string' || header === '') continue;
    const value = values[key];
    const sent = req.header(`mcp-param-${header.toLowerCase()}`);
    if (value === undefined || value === null) {
      if (sent !== undefined) return `the Mcp-Param-${header} header is sent for an argument that is absent`;
      continue;
    }
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    if (sent === undefined) return `the Mcp-Param-${header} header is missing`;
    if (!wellEncoded(sent)) return `the Mcp-Param-${header} header is not valid base64 inside =?base64?…?=`;
    if (decodeHeaderValue(sent) !== decodeHeaderValue(encodeHeaderValue(value)))
      return `the Mcp-Param-${header} header does not match the argument`;
  }
  return undefined;
}

/** A value in the `=?base64?…?=` wrapper must hold strict base64 (padding and alphabet); any other value is literal. */
function wellEncoded(value: string): boolean {
  if (!(value.startsWith('=?base64?') && value.endsWith('?='))) return true;
  const inner = value.slice('=?base64?'.length, -'?='.length);
  return inner.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(inner);
}
