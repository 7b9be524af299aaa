/**
 * OpenTelemetry's semantic conventions for MCP, as names and rules of our own: the one place
 * every span, metric and export of mcpwire takes them from (`mcpwire/otel`, `trace export`, the
 * proxy's live OTLP). Pure (no `node:*`, no `@opentelemetry/*`).
 *
 * Source: semantic-conventions v1.41.1, `docs/gen-ai/mcp.md` and `model/mcp/*.yaml` (status
 * Development; since v1.42.0 the same files live in `open-telemetry/semantic-conventions-genai`).
 * Development means the names may still change: they are spelled out here once, so a rename is
 * one edit. The server's error rule (which JSON-RPC codes the server does not count as its own
 * failure) is that repository's `model/mcp/common.yaml`.
 */

/** Attribute names, as the conventions spell them. */
export const ATTR = {
  methodName: 'mcp.method.name',
  protocolVersion: 'mcp.protocol.version',
  sessionId: 'mcp.session.id',
  resourceUri: 'mcp.resource.uri',
  requestId: 'jsonrpc.request.id',
  jsonrpcVersion: 'jsonrpc.protocol.version',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operationName: 'gen_ai.operation.name',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
  statusCode: 'rpc.response.status_code',
  networkTransport: 'network.transport',
  networkProtocolName: 'network.protocol.name',
  networkProtocolVersion: 'network.protocol.version',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  clientAddress: 'client.address',
  clientPort: 'client.port',
} as const;

/**
 * A gateway's audit attributes on the spans of a forwarded call (its SERVER span and the upstream
 * CLIENT span): the upstream server and the upstream's own name of what was called (mcpwire's
 * names: the conventions have none for a gateway), and the principal as OpenTelemetry's general
 * `enduser.id`. Never a token.
 */
export const GATEWAY_ATTR = {
  upstreamServer: 'mcpwire.gateway.upstream.server',
  upstreamTarget: 'mcpwire.gateway.upstream.target',
  principal: 'enduser.id',
} as const;

/** `gen_ai.operation.name` of a tool call (and of nothing else). */
export const EXECUTE_TOOL = 'execute_tool';
/** `error.type` of a `tools/call` answered with `isError: true`. */
export const TOOL_ERROR = 'tool_error';
/** `error.type` of a request we gave up on for lack of an answer in time. */
export const TIMEOUT_ERROR = 'timeout';
/** `error.type` of a request the caller (or the peer) cancelled. */
export const CANCELLED_ERROR = 'cancelled';

/** The four duration histograms (unit `s`). */
export const METRIC = {
  clientOperationDuration: 'mcp.client.operation.duration',
  serverOperationDuration: 'mcp.server.operation.duration',
  clientSessionDuration: 'mcp.client.session.duration',
  serverSessionDuration: 'mcp.server.session.duration',
} as const;

/** The explicit bucket boundaries the conventions give every MCP duration histogram, in seconds. */
export const DURATION_BUCKETS: readonly number[] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** `network.transport` of an MCP transport: stdio is a pipe, HTTP runs on TCP. */
export function networkTransportOf(transport: string): string | undefined {
  if (transport === 'stdio') return 'pipe';
  if (transport === 'http' || transport === 'sse') return 'tcp';
  return undefined;
}

/** What a request or notification is about: its tool, prompt or resource, read from its params. */
export interface McpTarget {
  toolName?: string;
  promptName?: string;
  resourceUri?: string;
}

/** The target of `method` from its params (tool and prompt names, a resource URI). */
export function targetOf(method: string, params: unknown): McpTarget {
  if (params === null || typeof params !== 'object') return {};
  const name = (params as { name?: unknown }).name;
  const uri = (params as { uri?: unknown }).uri;
  if (method === 'tools/call' && typeof name === 'string') return { toolName: name };
  if (method === 'prompts/get' && typeof name === 'string') return { promptName: name };
  if (
    (method === 'resources/read' ||
      method === 'resources/subscribe' ||
      method === 'resources/unsubscribe' ||
      method === 'notifications/resources/updated') &&
    typeof uri === 'string'
  ) {
    return { resourceUri: uri };
  }
  return {};
}

/**
 * A span's name: `{mcp.method.name} {target}`, the target being the tool or prompt name (never
 * the resource URI: it is high-cardinality), or the method alone.
 */
export function spanNameOf(method: string, target: McpTarget): string {
  const name = target.toolName ?? target.promptName;
  return name === undefined ? method : `${method} ${name}`;
}

/**
 * JSON-RPC codes a server does not count as its own failure: the client sent something it could
 * not serve (parse error, invalid request, unknown method, invalid params, resource not found).
 * Its SERVER span records the code (`rpc.response.status_code`) but no `error.type`.
 */
const CLIENT_FAULT_CODES: ReadonlySet<number> = new Set([-32700, -32600, -32601, -32602, -32002]);

/** Which side of the exchange a span describes. */
export type SpanSide = 'client' | 'server';

/** How an operation ended, as far as the conventions care. */
export type OperationOutcome =
  | { kind: 'result'; isError?: boolean }
  | { kind: 'rpc-error'; code: number; message?: string }
  | { kind: 'timeout'; message?: string }
  | { kind: 'cancelled'; message?: string }
  | { kind: 'failed'; errorType: string; message?: string };

/** What the conventions make of an outcome: the error attributes and the span's status. */
export interface OutcomeAttributes {
  /** `error.type`, set if and only if the operation failed (by `side`'s rule). */
  errorType?: string;
  /** `rpc.response.status_code`, set when the answer carried a JSON-RPC error code. */
  statusCode?: string;
  /** True when the span's status is ERROR. */
  isError: boolean;
  /** The status description: the JSON-RPC error's message, when there is one. */
  message?: string;
}

/**
 * The conventions' error rules. Client side: every JSON-RPC error is a failure (`error.type` is
 * its code), `isError` results are `tool_error`, a timeout is `timeout`. Server side: the same,
 * except the client-fault codes above, which are recorded but are not the server's failure.
 */
export function classifyOutcome(side: SpanSide, outcome: OperationOutcome): OutcomeAttributes {
  switch (outcome.kind) {
    case 'result':
      return outcome.isError === true ? { errorType: TOOL_ERROR, isError: true } : { isError: false };
    case 'rpc-error': {
      const statusCode = String(outcome.code);
      const message = outcome.message;
      if (side === 'server' && CLIENT_FAULT_CODES.has(outcome.code)) {
        return { statusCode, isError: false, ...(message !== undefined ? { message } : {}) };
      }
      return { errorType: statusCode, statusCode, isError: true, ...(message !== undefined ? { message } : {}) };
    }
    case 'timeout':
      return { errorType: TIMEOUT_ERROR, isError: true, ...(outcome.message ? { message: outcome.message } : {}) };
    case 'cancelled':
      return { errorType: CANCELLED_ERROR, isError: true, ...(outcome.message ? { message: outcome.message } : {}) };
    case 'failed':
      return { errorType: outcome.errorType, isError: true, ...(outcome.message ? { message: outcome.message } : {}) };
  }
}
