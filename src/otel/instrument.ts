/**
 * `instrument()`: OpenTelemetry spans and metrics for every MCP message this process sends or
 * handles, by the conventions of `util/mcp-semconv.ts`, from mcpwire's diagnostics channels. A
 * CLIENT span for each request or notification sent (its parent: the caller's active span; its
 * context propagated in `params._meta`), a SERVER span for each one handled (its parent: the
 * context in the message's `_meta`, the ambient one linked), the four duration histograms; in a
 * gateway, each forwarded call's audit attributes on both its spans (`gateway-audit.ts`).
 * Runtime-neutral (no Node built-in): the channels are Node's where the runtime has them, subscriber
 * lists elsewhere (`observe/tracing-channel.ts`). The active span flows through the context
 * manager the caller installed — AsyncLocalStorage on Node, the web SDK's on a page.
 */
import {
  context,
  metrics,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Histogram,
  type Link,
  type MeterProvider,
  type Span,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
  type TracerProvider,
} from '@opentelemetry/api';
import type {
  McpGatewayForwardEvent,
  McpHandleNotificationEvent,
  McpHandleRequestEvent,
  McpMessageEvent,
  McpSendNotificationEvent,
  McpSendRequestEvent,
  McpSessionEvent,
} from '../observe/channel-events.js';
import { MCP_CHANNELS } from '../observe/channels.js';
import { tracingChannel, type ChannelStore, type TracingChannel } from '../observe/tracing-channel.js';
import {
  ATTR,
  classifyOutcome,
  DURATION_BUCKETS,
  METRIC,
  networkTransportOf,
  spanNameOf,
  type OperationOutcome,
  type SpanSide,
} from '../util/mcp-semconv.js';
import { VERSION } from '../util/version.js';
import { connectionAttributes, endAttributes, metricAttributes, startAttributes } from './attributes.js';
import { captured, type ContentCapture } from './content.js';
import { forwardAttributes, upstreamAttributes, withForward } from './gateway-audit.js';
import { handledOutcome, sentOutcome } from './outcome.js';

/** Options of {@link instrument}. */
export interface InstrumentOptions {
  /** Where spans go (default: the global tracer provider). */
  tracerProvider?: TracerProvider;
  /** Where the duration histograms go (default: the global meter provider). */
  meterProvider?: MeterProvider;
  /** What is injected into and extracted from `params._meta` (default: the global propagator). */
  propagator?: TextMapPropagator;
  /**
   * Record tool arguments and results on `tools/call` spans (`gen_ai.tool.call.arguments|result`;
   * opt-in: they may hold personal data). Redacted as traces are. Default false.
   */
  captureContent?: boolean;
  /** Secret values scrubbed from captured content (as `--trace` scrubs configured secrets). */
  secrets?: readonly string[];
  /** The longest captured argument or result kept, in characters (default 4096). */
  maxContentLength?: number;
}

/** One message's span while it lives. */
interface Live {
  readonly span: Span;
  readonly context: Context;
  readonly attributes: Attributes;
  readonly startedAt: number;
}

type SentEvent = McpSendRequestEvent | McpSendNotificationEvent;
type HandledEvent = McpHandleRequestEvent | McpHandleNotificationEvent;

const metaGetter: TextMapGetter<Record<string, unknown>> = {
  get: (carrier, key) => (typeof carrier[key] === 'string' ? carrier[key] : undefined),
  keys: (carrier) => Object.keys(carrier),
};

const metaSetter: TextMapSetter<Record<string, string>> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

/**
 * Subscribes to mcpwire's diagnostics channels and turns what they carry into OpenTelemetry spans
 * and metrics. Returns a disposer that unsubscribes (spans already started still end). Call it
 * once, after your OpenTelemetry SDK is set up; each call subscribes on its own.
 */
export function instrument(options: InstrumentOptions = {}): () => void {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer('mcpwire', VERSION);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter('mcpwire', VERSION);
  const propagator = options.propagator;
  const capture: ContentCapture | undefined = options.captureContent
    ? { secrets: options.secrets ?? [], maxLength: options.maxContentLength ?? 4096 }
    : undefined;
  const histogram = (name: string, description: string): Histogram =>
    meter.createHistogram(name, {
      unit: 's',
      description,
      advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
    });
  const durations = {
    client: histogram(METRIC.clientOperationDuration, 'MCP request or notification duration, as its sender saw it'),
    server: histogram(METRIC.serverOperationDuration, 'MCP request or notification duration, as its receiver saw it'),
    clientSession: histogram(METRIC.clientSessionDuration, 'MCP session duration, as the client saw it'),
    serverSession: histogram(METRIC.serverSessionDuration, 'MCP session duration, as the server saw it'),
  };
  const live = new WeakMap<object, Live>();
  // A store for `bindStore`, one per call (a second instrument() binds its own): runs the handler
  // (or the send) with the message's span active in whatever context manager the caller installed.
  const contextStore: ChannelStore<Context> = { run: (value, fn) => context.with(value, fn) };

  const sent = (event: SentEvent): Live => {
    let state = live.get(event);
    if (state) return state;
    const parent = context.active();
    const attributes = startAttributes(event, (event as McpSendRequestEvent).id);
    if (capture) captureArguments(event, attributes, capture);
    const span = tracer.startSpan(spanNameOf(event.method, event), { kind: SpanKind.CLIENT, attributes }, parent);
    // A gateway's upstream call: its audit facts on the span, kept out of the metric attributes.
    const audit = upstreamAttributes(parent);
    if (audit) span.setAttributes(audit);
    const active = trace.setSpan(parent, span);
    if (propagator) propagator.inject(active, event.meta, metaSetter);
    else propagation.inject(active, event.meta);
    state = { span, context: active, attributes, startedAt: performance.now() };
    live.set(event, state);
    return state;
  };

  const handled = (event: HandledEvent): Live => {
    let state = live.get(event);
    if (state) return state;
    const ambient = context.active();
    const carrier = event.meta ?? {};
    const parent = propagator
      ? propagator.extract(ambient, carrier, metaGetter)
      : propagation.extract(ambient, carrier, metaGetter);
    // The message's own context is the parent; the ambient one (an HTTP server span) is linked.
    const ambientSpan = trace.getSpanContext(ambient);
    const links: Link[] = ambientSpan && trace.getSpanContext(parent) !== ambientSpan ? [{ context: ambientSpan }] : [];
    const attributes = startAttributes(event, (event as McpHandleRequestEvent).id);
    if (capture) captureArguments(event, attributes, capture);
    const span = tracer.startSpan(
      spanNameOf(event.method, event),
      { kind: SpanKind.SERVER, attributes, links },
      parent,
    );
    state = { span, context: trace.setSpan(parent, span), attributes, startedAt: performance.now() };
    live.set(event, state);
    return state;
  };

  const finish = (event: McpMessageEvent, side: SpanSide, outcome: OperationOutcome, result: unknown): void => {
    const state = live.get(event);
    if (!state) return; // started before instrument() was called
    live.delete(event);
    const classified = classifyOutcome(side, outcome);
    const ended = endAttributes(event, classified, result);
    const { span } = state;
    span.setAttributes(ended);
    if (capture && event.method === 'tools/call' && result !== undefined && !classified.isError) {
      const text = captured(result, capture);
      if (text !== undefined) span.setAttribute(ATTR.toolResult, text);
    }
    if (classified.isError)
      span.setStatus({
        code: SpanStatusCode.ERROR,
        ...(classified.message !== undefined ? { message: classified.message } : {}),
      });
    span.end();
    const seconds = (performance.now() - state.startedAt) / 1000;
    (side === 'client' ? durations.client : durations.server).record(
      seconds,
      metricAttributes(state.attributes, ended),
    );
  };

  const sessions = new WeakMap<object, number>();
  const sessionEnded = (event: McpSessionEvent): void => {
    const startedAt = sessions.get(event);
    if (startedAt === undefined) return;
    sessions.delete(event);
    const facts = event.connection;
    const attributes: Attributes = {};
    if (facts.protocolVersion !== undefined) attributes[ATTR.protocolVersion] = facts.protocolVersion;
    const transport = networkTransportOf(facts.transport);
    if (transport !== undefined) attributes[ATTR.networkTransport] = transport;
    Object.assign(attributes, metricAttributes(connectionAttributes(facts)));
    if (event.error !== undefined) {
      const side = facts.role === 'client' ? 'client' : 'server';
      const outcome = classifyOutcome(side, sentOutcome({ method: '', error: event.error }));
      if (outcome.errorType !== undefined) attributes[ATTR.errorType] = outcome.errorType;
    }
    const seconds = (performance.now() - startedAt) / 1000;
    (facts.role === 'client' ? durations.clientSession : durations.serverSession).record(seconds, attributes);
  };

  const subscriptions: Array<() => void> = [];
  const on = <E extends object>(name: string, handlers: Partial<Record<'start' | 'asyncEnd', (event: E) => void>>) => {
    const channel = tracingChannel<E>(name);
    const all = { start: noop, end: noop, asyncStart: noop, asyncEnd: noop, error: noop, ...handlers };
    channel.subscribe(all);
    subscriptions.push(() => channel.unsubscribe(all));
    return channel;
  };
  const bind = <E extends object>(channel: TracingChannel<E>, ensure: (event: E) => Live) => {
    channel.start.bindStore(contextStore, (event) => ensure(event).context);
    subscriptions.push(() => void channel.start.unbindStore(contextStore));
  };

  const sentChannels = [MCP_CHANNELS.sendRequest, MCP_CHANNELS.sendNotification];
  for (const name of sentChannels) {
    const channel = on<SentEvent>(name, {
      start: (event) => void sent(event),
      asyncEnd: (event) => finish(event, 'client', sentOutcome(event), (event as McpSendRequestEvent).result),
    });
    bind(channel, sent);
  }
  for (const name of [MCP_CHANNELS.handleRequest, MCP_CHANNELS.handleNotification]) {
    const channel = on<HandledEvent>(name, {
      start: (event) => void handled(event),
      asyncEnd: (event) => {
        const answer = (event as McpHandleRequestEvent).answer as { result?: unknown } | undefined;
        finish(event, 'server', handledOutcome(event), answer?.result);
      },
    });
    bind(channel, handled);
  }
  // A gateway's forwarded call: audited on the SERVER span, its facts in the upstream call's context.
  const forwards = on<McpGatewayForwardEvent>(MCP_CHANNELS.gatewayForward, {
    start: (event) => trace.getActiveSpan()?.setAttributes(forwardAttributes(event)),
  });
  forwards.start.bindStore(contextStore, (event) => withForward(context.active(), event));
  subscriptions.push(() => void forwards.start.unbindStore(contextStore));
  on<McpSessionEvent>(MCP_CHANNELS.session, {
    start: (event) => void sessions.set(event, performance.now()),
    asyncEnd: sessionEnded,
  });

  let disposed = false;
  return () => {
    if (disposed) return;
    disposed = true;
    for (const off of subscriptions.splice(0)) off();
  };
}

function noop(): void {}

/** `gen_ai.tool.call.arguments` of a tool call (opt-in). */
function captureArguments(event: McpMessageEvent, attributes: Attributes, capture: ContentCapture): void {
  if (event.method !== 'tools/call') return;
  const text = captured((event.params as { arguments?: unknown } | undefined)?.arguments, capture);
  if (text !== undefined) attributes[ATTR.toolArguments] = text;
}
