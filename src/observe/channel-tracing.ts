/**
 * The engine's observer that publishes on mcpwire's diagnostics channels ({@link MCP_CHANNELS}):
 * one per connection, built by the layer that knows the connection's facts. When a channel has no
 * subscriber its hook returns undefined at once, so a message nobody watches costs one check.
 */
import type { EngineTracing, InboundTrace, OutboundTrace, SessionTrace } from '../protocol/engine-tracing.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcRequest } from '../protocol/jsonrpc.js';
import { META_KEYS } from '../protocol/meta-keys.js';
import { withMeta } from '../protocol/with-meta.js';
import { targetOf } from '../util/mcp-semconv.js';
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
import type { TracingChannel } from './tracing-channel.js';

type Params = Record<string, unknown> | undefined;
type Channel<E extends object> = TracingChannel<E>;

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
    return new Outbound(sendRequestChannel, new SendRequestEvent(this.facts, method, id, params));
  }

  sendingNotification(method: string, params: Params): OutboundTrace | undefined {
    if (!sendNotificationChannel.hasSubscribers) return undefined;
    return new Outbound(sendNotificationChannel, new SendNotificationEvent(this.facts, method, params));
  }

  handlingRequest(request: JsonRpcRequest): InboundTrace | undefined {
    if (!handleRequestChannel.hasSubscribers) return undefined;
    const params = Array.isArray(request.params) ? undefined : request.params;
    return new Inbound(handleRequestChannel, new HandleRequestEvent(this.facts, request.method, request.id, params));
  }

  handlingNotification(method: string, params: Params): InboundTrace | undefined {
    if (!handleNotificationChannel.hasSubscribers) return undefined;
    return new Inbound(handleNotificationChannel, new HandleNotificationEvent(this.facts, method, params));
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

/**
 * The facts every message event carries, set in one constructor so every event has one shape (an
 * object spread followed by more properties takes a slow path on Node 20's V8).
 */
class MessageFacts {
  readonly toolName: string | undefined;
  readonly promptName: string | undefined;
  readonly resourceUri: string | undefined;
  readonly protocolVersion: string | undefined;

  constructor(
    readonly connection: McpConnectionFacts,
    readonly method: string,
    public params: Params,
  ) {
    const target = targetOf(method, params);
    this.toolName = target.toolName;
    this.promptName = target.promptName;
    this.resourceUri = target.resourceUri;
    const meta = params?._meta as Record<string, unknown> | undefined;
    const version = meta?.[META_KEYS.protocolVersion];
    this.protocolVersion = typeof version === 'string' ? version : connection.protocolVersion;
  }
}

class SendRequestEvent extends MessageFacts implements McpSendRequestEvent {
  readonly meta: Record<string, string> = {};
  result: Record<string, unknown> | undefined = undefined;
  error: unknown = undefined;

  constructor(
    connection: McpConnectionFacts,
    method: string,
    readonly id: JsonRpcId,
    params: Params,
  ) {
    super(connection, method, params);
  }
}

class SendNotificationEvent extends MessageFacts implements McpSendNotificationEvent {
  readonly meta: Record<string, string> = {};
  error: unknown = undefined;
}

class HandleRequestEvent extends MessageFacts implements McpHandleRequestEvent {
  readonly meta: Record<string, unknown> | undefined;
  answer: JsonRpcMessage | undefined = undefined;
  error: unknown = undefined;

  constructor(
    connection: McpConnectionFacts,
    method: string,
    readonly id: JsonRpcId,
    params: Params,
  ) {
    super(connection, method, params);
    this.meta = metaOf(params);
  }
}

class HandleNotificationEvent extends MessageFacts implements McpHandleNotificationEvent {
  readonly meta: Record<string, unknown> | undefined;

  constructor(connection: McpConnectionFacts, method: string, params: Params) {
    super(connection, method, params);
    this.meta = metaOf(params);
  }
}

function metaOf(params: Params): Record<string, unknown> | undefined {
  const meta = params?._meta;
  return meta !== null && typeof meta === 'object' && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : undefined;
}
