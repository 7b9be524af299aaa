/**
 * mcpwire's diagnostics TracingChannels: their names (a public contract, see
 * `docs/observability.md`) and the channel objects every connection of this process publishes on.
 * A subscriber uses the names with `diagnostics_channel.tracingChannel(name)`; where the runtime
 * has `node:diagnostics_channel` the objects here are the same ones it keeps by name
 * (`tracing-channel.ts`).
 */
import type {
  McpGatewayForwardEvent,
  McpHandleNotificationEvent,
  McpHandleRequestEvent,
  McpSendNotificationEvent,
  McpSendRequestEvent,
  McpSessionEvent,
} from './channel-events.js';
import { tracingChannel } from './tracing-channel.js';

/** The names of mcpwire's TracingChannels (each gives `tracing:<name>:start|end|asyncStart|asyncEnd|error`). */
export const MCP_CHANNELS = {
  /** A request this process sends: {@link McpSendRequestEvent}. */
  sendRequest: 'mcpwire:send-request',
  /** A notification this process sends: {@link McpSendNotificationEvent}. */
  sendNotification: 'mcpwire:send-notification',
  /** A request of the peer this process handles: {@link McpHandleRequestEvent}. */
  handleRequest: 'mcpwire:handle-request',
  /** A notification of the peer this process handles: {@link McpHandleNotificationEvent}. */
  handleNotification: 'mcpwire:handle-notification',
  /** A connection's (session's) life: {@link McpSessionEvent}. */
  session: 'mcpwire:session',
  /** A call a gateway forwards to an upstream: {@link McpGatewayForwardEvent}. */
  gatewayForward: 'mcpwire:gateway-forward',
} as const;

export const sendRequestChannel = tracingChannel<McpSendRequestEvent>(MCP_CHANNELS.sendRequest);
export const sendNotificationChannel = tracingChannel<McpSendNotificationEvent>(MCP_CHANNELS.sendNotification);
export const handleRequestChannel = tracingChannel<McpHandleRequestEvent>(MCP_CHANNELS.handleRequest);
export const handleNotificationChannel = tracingChannel<McpHandleNotificationEvent>(MCP_CHANNELS.handleNotification);
export const sessionChannel = tracingChannel<McpSessionEvent>(MCP_CHANNELS.session);
export const gatewayForwardChannel = tracingChannel<McpGatewayForwardEvent>(MCP_CHANNELS.gatewayForward);
