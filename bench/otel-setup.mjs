// What `mcpwire-otel` runs before its client or server starts: the real OpenTelemetry SDK (2.x)
// as an agent would set it up — spans through a BatchSpanProcessor to an exporter that drops
// them (the export's own cost is not mcpwire's), the four histograms into a MeterProvider, W3C
// trace context injected into every request's `_meta`, the async-hooks context manager — and
// then mcpwire's `instrument()`. So `mcpwire-otel` against `mcpwire` is what `instrument()` costs.
class Dropping {
  export(_spans, done) {
    done({ code: 0 });
  }
  shutdown() {
    return Promise.resolve();
  }
}

/** Sets the SDK up globally and instruments mcpwire (its `mcpwire/otel` from `dist`). */
export async function setUpOtel(dist = new URL('../dist/', import.meta.url).href) {
  // BENCH_OTEL=api: instrument() over the API's no-op providers (what mcpwire's own side costs).
  if (process.env.BENCH_OTEL === 'api') {
    const { instrument } = await import(new URL('otel/index.js', dist).href);
    instrument();
    return;
  }
  // Loaded here, not at the top: the other clients of a bench run must not load the SDK.
  const [{ context, metrics, propagation, trace }, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
    ]);
  const [{ MeterProvider, MetricReader }, { BasicTracerProvider, BatchSpanProcessor }] = await Promise.all([
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/sdk-trace-base'),
  ]);
  class Kept extends MetricReader {
    onForceFlush() {
      return Promise.resolve();
    }
    onShutdown() {
      return Promise.resolve();
    }
  }
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new Dropping())] }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new Kept()] }));
  const { instrument } = await import(new URL('otel/index.js', dist).href);
  instrument();
}

/** The dist/ of a baseline build to compare with (`MCPWIRE_BASE_DIST`, e.g. a worktree of an older commit). */
export function baseDist() {
  const dir = process.env.MCPWIRE_BASE_DIST;
  if (!dir) throw new Error('mcpwire-base needs MCPWIRE_BASE_DIST: the dist/ directory of the build to compare with');
  return new URL(`file://${dir.replace(/\/?$/, '/')}`).href;
}
