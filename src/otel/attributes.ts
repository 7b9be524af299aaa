/**
 * The conventions' attributes of one message event: what is known when it starts (the method, its
 * target, its id, the connection's transport and addresses), and what is known once it ended (the
 * revision, the session, how it ended). Every name comes from `util/mcp-semconv.ts`.
 */
import type { Attributes } from '@opentelemetry/api';
import type { McpConnectionFacts, McpMessageEvent } from '../observe/channel-events.js';
import { ATTR, EXECUTE_TOOL, networkTransportOf, type OutcomeAttributes } from '../util/mcp-semconv.js';

/** Attributes known when a message's life starts (span and metric attributes alike). */
export function startAttributes(event: McpMessageEvent, id: unknown): Attributes {
  const attributes: Attributes = { [ATTR.methodName]: event.method };
  if (typeof id === 'string' || typeof id === 'number') attributes[ATTR.requestId] = String(id);
  if (event.toolName !== undefined) {
    attributes[ATTR.toolName] = event.toolName;
    attributes[ATTR.operationName] = EXECUTE_TOOL;
  }
  if (event.promptName !== undefined) attributes[ATTR.promptName] = event.promptName;
  if (event.resourceUri !== undefined) attributes[ATTR.resourceUri] = event.resourceUri;
  return connectionAttributes(event.connection, attributes);
}

/** What the connection says of where the message went (transport, the peer's address), added to `attributes`. */
export function connectionAttributes(facts: McpConnectionFacts, attributes: Attributes = {}): Attributes {
  const transport = networkTransportOf(facts.transport);
  if (transport !== undefined) attributes[ATTR.networkTransport] = transport;
  if (facts.transport === 'http' || facts.transport === 'sse') attributes[ATTR.networkProtocolName] = 'http';
  if (facts.role === 'client') {
    if (facts.serverAddress !== undefined) attributes[ATTR.serverAddress] = facts.serverAddress;
    if (facts.serverPort !== undefined) attributes[ATTR.serverPort] = facts.serverPort;
  } else {
    if (facts.clientAddress !== undefined) attributes[ATTR.clientAddress] = facts.clientAddress;
    if (facts.clientPort !== undefined) attributes[ATTR.clientPort] = facts.clientPort;
  }
  return attributes;
}

/** Attributes known once it ended: the revision and session (settled by then), and the outcome's. */
export function endAttributes(event: McpMessageEvent, outcome: OutcomeAttributes, result?: unknown): Attributes {
  const attributes: Attributes = {};
  const version = event.protocolVersion ?? event.connection.protocolVersion ?? negotiatedBy(event, result);
  if (version !== undefined) attributes[ATTR.protocolVersion] = version;
  const session = event.connection.sessionId;
  if (session !== undefined) attributes[ATTR.sessionId] = session;
  if (outcome.errorType !== undefined) attributes[ATTR.errorType] = outcome.errorType;
  if (outcome.statusCode !== undefined) attributes[ATTR.statusCode] = outcome.statusCode;
  return attributes;
}

/** Metric attributes: the low-cardinality ones of `sets` (no request id, session id, resource URI, client address). */
export function metricAttributes(...sets: Attributes[]): Attributes {
  const out: Attributes = {};
  for (const set of sets) {
    for (const key in set) {
      if (key === ATTR.requestId || key === ATTR.sessionId || key === ATTR.resourceUri) continue;
      if (key === ATTR.clientAddress || key === ATTR.clientPort) continue;
      out[key] = set[key];
    }
  }
  return out;
}

/** The revision an `initialize` answer settles on: known before the connection's facts learn it. */
function negotiatedBy(event: McpMessageEvent, result: unknown): string | undefined {
  if (event.method !== 'initialize' || result === null || typeof result !== 'object') return undefined;
  const version = (result as { protocolVersion?: unknown }).protocolVersion;
  return typeof version === 'string' ? version : undefined;
}
