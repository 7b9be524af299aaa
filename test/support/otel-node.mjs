// OpenTelemetry as an agent or a server process sets it up (the real Node SDK, 2.x line): spans
// of this process exported as OTLP/HTTP JSON to `$OTLP_URL/v1/traces`, W3C trace context and
// baggage as the propagators, the async-hooks context manager; then mcpwire's `instrument()`.
// `shutdown()` flushes every span before the process exits.
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { instrument } from 'mcpwire/otel';

/** Starts telemetry for `serviceName`; resolves with `shutdown` (flush, then stop). */
export function startTelemetry(serviceName) {
  const url = process.env.OTLP_URL;
  if (!url) throw new Error('OTLP_URL is not set');
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${url}/v1/traces` }))],
  });
  provider.register();
  const dispose = instrument();
  return {
    tracer: trace.getTracer(serviceName),
    async shutdown() {
      dispose();
      await provider.forceFlush();
      await provider.shutdown();
    },
  };
}
