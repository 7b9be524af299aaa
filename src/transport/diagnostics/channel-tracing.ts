/**
 * The engine's observer that publishes on mcpwire's diagnostics channels ({@link MCP_CHANNELS}):
 * one per connection, built by the layer that knows the connection's facts. When a channel has no
 * subscriber its hook returns undefined at once, so a message nobody watches costs one check.
 */
import type { TracingChannel } from 'node:diagnostics_channel';
import type { EngineTracing, InboundTrace, OutboundTrace, SessionTrace } from '../../protocol/engine-tracing.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcRequest } from '../../protocol/jsonrpc.js';
import { META_KEYS } from '../../protocol/meta-keys.js';
import { withMeta } from '../../protocol/with-meta.js';
import { targetOf } from '../../util/mcp-semconv.js';
import type {
  McpConnectionFacts,
  McpHandleNotificationEvent,
  McpHandleRequestEvent,
  McpSendNotificationEvent,
  McpSendRequestEvent,
  McpSessionEvent,
} from './channel-events.js';
import {
  handleNotificationChannel,
  handleRequestChannel,
  sendNotificationChannel,
  sendRequestChannel,
  sessionChannel,
} from './channels.js';

type Params = Record<string, unknown> | undefined;
type Channel<E extends object> = TracingChannel<unknown, E>;

/** Options of {@link ChannelTracing}. */
export interface ChannelTracingOptions {
  /** Publish the connection's life on `mcpwire:session` (default true; false for a server's per-POST connections). */
  session?: boolean;
}

/** Publishes one connection's messages on mcpwire's channels; see the file's contract. */
export class ChannelTracing implements EngineTracing {
  private readonly session: boolean;

  constructor(
    private readonly facts: McpConnectionFacts,
    options: ChannelTracingOptions = {},
  ) {
    this.session = options.session ?? true;
  }

  sendingRequest(method: string, id: JsonRpcId, params: Params): OutboundTrace | undefined {
    if (!sendRequestChannel.hasSubscribers) return undefined;
    const event: McpSendRequestEvent = { ...messageFacts(this.facts, method, params), id, meta: {} };
    return new Outbound(sendRequestChannel, event);
  }

  sendingNotification(method: string, params: Params): OutboundTrace | undefined {
    if (!sendNotificationChannel.hasSubscribers) return undefined;
    const event: McpSendNotificationEvent = { ...messageFacts(this.facts, method, params), meta: {} };
    return new Outbound(sendNotificationChannel, event);
  }

  handlingRequest(request: JsonRpcRequest): InboundTrace | undefined {
    if (!handleRequestChannel.hasSubscribers) return undefined;
    const params = Array.isArray(request.params) ? undefined : request.params;
    const event: McpHandleRequestEvent = {
      ...messageFacts(this.facts, request.method, params),
      id: request.id,
      meta: metaOf(params),
    };
    return new Inbound(handleRequestChannel, event);
  }

  handlingNotification(method: string, params: Params): InboundTrace | undefined {
    if (!handleNotificationChannel.hasSubscribers) return undefined;
    const event: McpHandleNotificationEvent = { ...messageFacts(this.facts, method, params), meta: metaOf(params) };
    return new Inbound(handleNotificationChannel, event);
  }

  opened(): SessionTrace | undefined {
    if (!this.session || !sessionChannel.hasSubscribers) return undefined;
    const event: McpSessionEvent = { connection: this.facts };
    sessionChannel.start.publish(event);
    sessionChannel.end.publish(event);
    return {
      ended(error: unknown): void {
        if (error !== undefined) {
          event.error = error;
          sessionChannel.error.publish(event);
        }
        sessionChannel.asyncStart.publish(event);
        sessionChannel.asyncEnd.publish(event);
      },
    };
  }
}

/** A message we send: `start` (subscribers add propagation fields) then the send, in their stores. */
class Outbound<E extends McpSendRequestEvent | McpSendNotificationEvent> implements OutboundTrace {
  constructor(
    private readonly channel: Channel<E>,
    private readonly event: E,
  ) {}

  /** The params with what subscribers of `start` propagate in `_meta`; read inside {@link run}. */
  get params(): Params {
    const event = this.event as { params: Params; meta: Record<string, string> };
    let fields: Record<string, string> | undefined;
    for (const key in event.meta) {
      const value = event.meta[key];
      if (typeof value === 'string') (fields ??= {})[key] = value;
    }
    if (fields === undefined) return event.params;
    const meta = event.params?._meta;
    const merged = meta !== null && typeof meta === 'object' ? { ...meta, ...fields } : fields;
    event.params = withMeta(event.params, merged);
    return event.params;
  }

  run<T>(send: () => T): T {
    try {
      return this.channel.start.runStores(this.event, send);
    } finally {
      this.channel.end.publish(this.event);
    }
  }

  settled(result: Record<string, unknown> | undefined, error: unknown): void {
    const event = this.event as McpSendRequestEvent;
    if (error !== undefined) {
      event.error = error;
      this.channel.error.publish(this.event);
    } else if (result !== undefined) event.result = result;
    this.channel.asyncStart.publish(this.event);
    this.channel.asyncEnd.publish(this.event);
  }
}

/** A message of the peer we handle: `start`, the handler in the subscribers' stores, then its end. */
class Inbound<E extends McpHandleRequestEvent | McpHandleNotificationEvent> implements InboundTrace {
  private started = false;

  constructor(
    private readonly channel: Channel<E>,
    private readonly event: E,
  ) {}

  run<T>(handler: () => T): T {
    this.started = true;
    try {
      return this.channel.start.runStores(this.event, handler);
    } finally {
      this.channel.end.publish(this.event);
    }
  }

  ended(answer: JsonRpcMessage | undefined, error: unknown): void {
    if (!this.started) {
      // Refused before any handler ran (an unknown method, an id in use): still one whole life.
      this.started = true;
      this.channel.start.publish(this.event);
      this.channel.end.publish(this.event);
    }
    const event = this.event as McpHandleRequestEvent;
    if (answer !== undefined) event.answer = answer;
    if (error !== undefined) event.error = error;
    if (error !== undefined || (answer !== undefined && 'error' in answer)) this.channel.error.publish(this.event);
    this.channel.asyncStart.publish(this.event);
    this.channel.asyncEnd.publish(this.event);
  }
}

function messageFacts(facts: McpConnectionFacts, method: string, params: Params) {
  const target = targetOf(method, params);
  const meta = params?._meta as Record<string, unknown> | undefined;
  const version = meta?.[META_KEYS.protocolVersion];
  return {
    connection: facts,
    method,
    params,
    toolName: target.toolName,
    promptName: target.promptName,
    resourceUri: target.resourceUri,
    protocolVersion: typeof version === 'string' ? version : facts.protocolVersion,
  };
}

function metaOf(params: Params): Record<string, unknown> | undefined {
  const meta = params?._meta;
  return meta !== null && typeof meta === 'object' && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : undefined;
}
