/**
 * The 2026-07-28 request-metadata headers (`basic/transports/streamable-http.mdx`): every request
 * mirrors its `_meta` revision into `MCP-Protocol-Version`, its method into `Mcp-Method`, and the
 * tool or prompt name (or resource URI) into `Mcp-Name`. Reading these framing fields is the HTTP
 * binding itself; nothing else of the message is looked at. Modern era only.
 */
import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';
import { encodeHeaderValue } from './header-values.js';
import { META_KEYS } from '../../protocol/meta-keys.js';

/** Adds the mirrored headers of `message` to `headers` (nothing when it carries no `_meta` revision). */
export function addModernHeaders(headers: Record<string, string>, message: JsonRpcMessage): void {
  const params = (message as { params?: Record<string, unknown> }).params;
  const version = (params?._meta as Record<string, unknown> | undefined)?.[META_KEYS.protocolVersion];
  if (typeof version !== 'string') return;
  headers['mcp-protocol-version'] = version;
  if (!('method' in message) || !('id' in message)) return;
  const method = message.method;
  headers['mcp-method'] = method;
  const name =
    method === 'resources/read'
      ? params?.uri
      : method === 'tools/call' || method === 'prompts/get'
        ? params?.name
        : undefined;
  if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
}
