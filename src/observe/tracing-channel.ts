/**
 * The diagnostics-channel layer every runtime has: `node:diagnostics_channel` where the runtime
 * provides it (Node, Deno, Bun: reached through `process.getBuiltinModule`, so no bundle for a
 * Worker or a browser sees a `node:` import), and a plain subscriber list elsewhere. On Node the
 * channels are Node's own, kept by name: a subscriber using `diagnostics_channel.tracingChannel(name)`
 * hears what mcpwire publishes.
 */

/** A subscriber of one channel: the published event and the channel's name. */
export type ChannelListener<E> = (event: E, name: string | symbol) => void;

/**
 * What {@link EventChannel.bindStore} takes: anything with `AsyncLocalStorage`'s `run` — an
 * `AsyncLocalStorage`, or an adapter over a context manager (OpenTelemetry's `context.with`).
 */
export interface ChannelStore<S> {
  run<T>(value: S, fn: () => T): T;
}

/** One channel: what mcpwire publishes on, and what subscribers listen to. */
export interface EventChannel<E extends object> {
  /** False when nobody listens (no subscriber, no bound store): publishing is then skipped by callers. */
  readonly hasSubscribers: boolean;
  publish(event: E): void;
  /**
   * Runs `run` inside every store bound to the channel (each entered with `transform(event)`, or
   * the event itself), publishing `event` first, inside them (Node's `runStores`).
   */
  runStores<T>(event: E, run: () => T): T;
  subscribe(listener: ChannelListener<E>): void;
  /** False when `listener` was not subscribed. */
  unsubscribe(listener: ChannelListener<E>): boolean;
  /**
   * Binds `store` to the channel: {@link runStores} runs inside `store.run(transform(event), …)`.
   * Binding a bound store again replaces its transform. A throwing transform is reported
   * asynchronously and its store skipped for that event.
   */
  bindStore<S>(store: ChannelStore<S>, transform?: (event: E) => S): void;
  /** False when `store` was not bound. */
  unbindStore(store: ChannelStore<never>): boolean;
}

/** The five events of a traced operation, each on `tracing:<name>:<event>`. */
export type TracingEvent = 'start' | 'end' | 'asyncStart' | 'asyncEnd' | 'error';

/** Listeners for some of the five events of a tracing channel. */
export type TracingListeners<E> = Partial<Record<TracingEvent, ChannelListener<E>>>;

/** A tracing channel (Node's `TracingChannel` shape, the parts mcpwire uses). */
export type TracingChannel<E extends object> = Readonly<Record<TracingEvent, EventChannel<E>>> & {
  /** True when any of the five channels has a subscriber. */
  readonly hasSubscribers: boolean;
  subscribe(listeners: TracingListeners<E>): void;
  unsubscribe(listeners: TracingListeners<E>): boolean;
};

const EVENTS: readonly TracingEvent[] = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'];

type NodeDiagnostics = { tracingChannel(name: string): TracingChannel<object> };
type Host = { process?: { getBuiltinModule?: (id: string) => unknown } };

/** Node's module where the runtime has one (Node ≥ 20.16, Deno, Bun); undefined elsewhere. */
const native = (globalThis as Host).process?.getBuiltinModule?.('node:diagnostics_channel') as
  NodeDiagnostics | undefined;

/**
 * The tracing channel `name`: the runtime's own (one object per name, shared with every
 * subscriber in the process), or one from a registry on `globalThis` shared by every copy of
 * mcpwire where the runtime has none.
 */
export function tracingChannel<E extends object>(name: string): TracingChannel<E> {
  if (native) {
    const channel = native.tracingChannel(name) as TracingChannel<E>;
    // Bun's TracingChannel has no `hasSubscribers` of its own: it is read from the five channels.
    if (!('hasSubscribers' in channel))
      Object.defineProperty(channel, 'hasSubscribers', { get: () => anySubscribed(channel) });
    return channel;
  }
  const registry = ((globalThis as Record<symbol, unknown>)[REGISTRY] ??= new Map()) as Map<string, unknown>;
  let channel = registry.get(name) as TracingChannel<E> | undefined;
  if (!channel) {
    channel = listTracingChannel<E>(name);
    registry.set(name, channel);
  }
  return channel;
}

/** A new tracing channel on plain subscriber lists (what {@link tracingChannel} uses without Node's module). */
export function listTracingChannel<E extends object>(name: string): TracingChannel<E> {
  return new ListTracingChannel<E>(name);
}

const REGISTRY = Symbol.for('mcpwire.diagnostics-channels');

function anySubscribed(channel: Readonly<Record<TracingEvent, EventChannel<object>>>): boolean {
  return EVENTS.some((event) => channel[event].hasSubscribers);
}

/** Rethrows `error` outside the publisher's stack (Node reports a throwing subscriber so too). */
function reportLater(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}

type Transform<E> = ((event: E) => unknown) | undefined;

/** A channel as a list of subscribers; a throwing subscriber is skipped (reported asynchronously, as Node does). */
class ListChannel<E extends object> implements EventChannel<E> {
  private listeners: ReadonlyArray<ChannelListener<E>> = [];
  private readonly stores = new Map<ChannelStore<unknown>, Transform<E>>();

  constructor(readonly name: string) {}

  get hasSubscribers(): boolean {
    return this.listeners.length > 0 || this.stores.size > 0;
  }

  publish(event: E): void {
    for (const listener of this.listeners) {
      try {
        listener(event, this.name);
      } catch (error) {
        reportLater(error);
      }
    }
  }

  runStores<T>(event: E, run: () => T): T {
    let next = (): T => {
      this.publish(event);
      return run();
    };
    // As Node does: each store wraps the ones bound before it, so the last bound is entered first.
    for (const [store, transform] of this.stores) {
      const inner = next;
      next = () => {
        let value: unknown;
        try {
          value = transform ? transform(event) : event;
        } catch (error) {
          reportLater(error);
          return inner();
        }
        return store.run(value, inner);
      };
    }
    return next();
  }

  bindStore<S>(store: ChannelStore<S>, transform?: (event: E) => S): void {
    this.stores.set(store, transform);
  }

  unbindStore(store: ChannelStore<never>): boolean {
    return this.stores.delete(store);
  }

  subscribe(listener: ChannelListener<E>): void {
    // A new array: a publish under way keeps the list it started with.
    this.listeners = [...this.listeners, listener];
  }

  unsubscribe(listener: ChannelListener<E>): boolean {
    const index = this.listeners.indexOf(listener);
    if (index < 0) return false;
    this.listeners = this.listeners.filter((_, i) => i !== index);
    return true;
  }
}

class ListTracingChannel<E extends object> {
  readonly start: ListChannel<E>;
  readonly end: ListChannel<E>;
  readonly asyncStart: ListChannel<E>;
  readonly asyncEnd: ListChannel<E>;
  readonly error: ListChannel<E>;

  constructor(name: string) {
    this.start = new ListChannel(`tracing:${name}:start`);
    this.end = new ListChannel(`tracing:${name}:end`);
    this.asyncStart = new ListChannel(`tracing:${name}:asyncStart`);
    this.asyncEnd = new ListChannel(`tracing:${name}:asyncEnd`);
    this.error = new ListChannel(`tracing:${name}:error`);
  }

  get hasSubscribers(): boolean {
    return anySubscribed(this);
  }

  subscribe(listeners: TracingListeners<E>): void {
    for (const event of EVENTS) {
      const listener = listeners[event];
      if (listener) this[event].subscribe(listener);
    }
  }

  unsubscribe(listeners: TracingListeners<E>): boolean {
    let all = true;
    for (const event of EVENTS) {
      const listener = listeners[event];
      if (listener && !this[event].unsubscribe(listener)) all = false;
    }
    return all;
  }
}
