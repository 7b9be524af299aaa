// The one fixed HTTP client of the server bench: undici's Pool (64 keep-alive connections, no
// pipelining) posting JSON-RPC by hand, reading a JSON body or the `data:` of an SSE answer. No
// MCP client library, so the same client cost is under every server.
import { Pool } from 'undici';

const LEGACY = '2025-06-18';
const MODERN = '2026-07-28';

/**
 * A client of `url` (`http://127.0.0.1:PORT/mcp`). `era` `legacy` posts bare 2025-06-18 requests
 * (stateless: no initialize, `MCP-Protocol-Version` header; `session` adds `Mcp-Session-Id` after
 * an initialize); `modern` posts 2026-07-28 requests with the `_meta` envelope and `Mcp-*` headers,
 * declaring `capabilities` (e.g. the tasks extension).
 */
export function httpPeer(url, { era = 'legacy', connections = 64, capabilities = {} } = {}) {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
  let next = 1;
  let sessionId;
  const headersFor = (method, params) => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (era === 'modern') {
      headers['mcp-protocol-version'] = MODERN;
      headers['mcp-method'] = method;
      if (method === 'tools/call') headers['mcp-name'] = params.name;
      else if (typeof params.taskId === 'string') headers['mcp-name'] = params.taskId;
    } else {
      headers['mcp-protocol-version'] = LEGACY;
      if (sessionId) headers['mcp-session-id'] = sessionId;
    }
    return headers;
  };
  const envelope = (params) =>
    era === 'modern'
      ? {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities': capabilities,
            'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
          },
        }
      : params;
  async function post(message, headers) {
    const {
      statusCode,
      headers: answerHeaders,
      body,
    } = await pool.request({ path: target.pathname, method: 'POST', headers, body: JSON.stringify(message) });
    const text = await body.text();
    if (statusCode === 202) return { headers: answerHeaders };
    const type = String(answerHeaders['content-type'] ?? '');
    let answer;
    if (type.startsWith('text/event-stream')) {
      for (const line of text.split('\n')) {
        if (!line.startsWith('data:')) continue;
        const value = JSON.parse(line.slice(5));
        if (value.id === message.id) answer = value;
      }
    } else answer = JSON.parse(text);
    if (!answer) throw new Error(`HTTP ${statusCode} without an answer: ${text.slice(0, 200)}`);
    return { answer, headers: answerHeaders };
  }
  return {
    async request(method, params) {
      const id = next++;
      return (await post({ jsonrpc: '2.0', id, method, params: envelope(params) }, headersFor(method, params))).answer;
    },
    /** Legacy with sessions: initialize and keep the session id. */
    async initialize() {
      const { answer, headers } = await post(
        {
          jsonrpc: '2.0',
          id: next++,
          method: 'initialize',
          params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
        },
        headersFor('initialize', {}),
      );
      sessionId = headers['mcp-session-id'];
      await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headersFor('notifications/initialized', {}));
      return answer;
    },
    close: () => pool.close(),
  };
}
