/**
 * A gateway's audit trail on its spans, from `mcpwire:gateway-forward`: the upstream server, the
 * upstream's name of the tool, prompt or resource, and the principal (`GATEWAY_ATTR`). Set on the
 * span active when the call is forwarded (the downstream request's SERVER span), and carried in
 * the context of the upstream call, where `instrument()` adds the server and principal to the
 * upstream CLIENT span. Never a token: the event carries none.
 */
import { createContextKey, type Attributes, type Context } from '@opentelemetry/api';
import type { McpGatewayForwardEvent } from '../observe/channel-events.js';
import { GATEWAY_ATTR } from '../util/mcp-semconv.js';

const FORWARD = createContextKey('mcpwire gateway forward');

/** The SERVER span's audit attributes of one forwarded call. */
export function forwardAttributes(event: McpGatewayForwardEvent): Attributes {
  const attributes: Attributes = {
    [GATEWAY_ATTR.upstreamServer]: event.server,
    [GATEWAY_ATTR.upstreamTarget]: event.target,
  };
  if (event.principal !== undefined) attributes[GATEWAY_ATTR.principal] = event.principal;
  return attributes;
}

/** `parent` with the forwarded call's facts in it, for the upstream call's spans. */
export function withForward(parent: Context, event: McpGatewayForwardEvent): Context {
  return parent.setValue(FORWARD, event);
}

/**
 * The attributes an upstream CLIENT span sent in `active` takes from the call forwarded there (its
 * server and principal; the target is the span's own tool name), or undefined outside one.
 */
export function upstreamAttributes(active: Context): Attributes | undefined {
  const event = active.getValue(FORWARD) as McpGatewayForwardEvent | undefined;
  if (!event) return undefined;
  const attributes: Attributes = { [GATEWAY_ATTR.upstreamServer]: event.server };
  if (event.principal !== undefined) attributes[GATEWAY_ATTR.principal] = event.principal;
  return attributes;
}
