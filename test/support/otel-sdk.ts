/**
 * The real OpenTelemetry SDK (2.x line) set up for one test file, in memory: spans through a
 * `SimpleSpanProcessor` into an `InMemorySpanExporter`, metrics through a reader collected on
 * demand, W3C trace context as the propagator, and the async-hooks context manager (what an
 * agent's `NodeSDK` would install). `instrumented()` calls mcpwire's `instrument()` on them and
 * undoes everything when the file ends.
 */
import { context, propagation, trace, type Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { afterAll } from 'vitest';
import { instrument, type InstrumentOptions } from '../../src/otel/index.js';

/** A metric reader the test collects from when it wants. */
class OnDemandReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** One histogram's data points, flattened. */
export interface HistogramPoint {
  name: string;
  unit: string;
  boundaries: number[];
  attributes: Attributes;
  count: number;
}

export interface OtelHarness {
  exporter: InMemorySpanExporter;
  /** The finished spans, named `name` (every span when absent). */
  spans(name?: string): ReadableSpan[];
  /** Every data point of every histogram collected now. */
  histograms(): Promise<HistogramPoint[]>;
  tracerProvider: BasicTracerProvider;
}

/** The SDK in memory with mcpwire instrumented on it (`options` added); torn down after the file. */
export function instrumented(options: Omit<InstrumentOptions, 'tracerProvider' | 'meterProvider'> = {}): OtelHarness {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  // Global as an agent's SDK makes it: code inside a tool handler opens spans with the API alone.
  trace.setGlobalTracerProvider(tracerProvider);
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const dispose = instrument({ ...options, tracerProvider, meterProvider });
  afterAll(async () => {
    dispose();
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    context.disable();
    propagation.disable();
    trace.disable();
  });
  return {
    exporter,
    tracerProvider,
    spans: (name) => exporter.getFinishedSpans().filter((span) => name === undefined || span.name === name),
    histograms: async () => {
      const { resourceMetrics } = await reader.collect();
      return flatten(resourceMetrics);
    },
  };
}

function flatten(metrics: ResourceMetrics): HistogramPoint[] {
  const points: HistogramPoint[] = [];
  for (const scope of metrics.scopeMetrics) {
    for (const metric of scope.metrics) {
      for (const point of metric.dataPoints) {
        const value = point.value as { count?: number; buckets?: { boundaries: number[] } };
        points.push({
          name: metric.descriptor.name,
          unit: metric.descriptor.unit,
          boundaries: value.buckets?.boundaries ?? [],
          attributes: point.attributes,
          count: value.count ?? 0,
        });
      }
    }
  }
  return points;
}
