/**
 * `mcpwire/otel`: OpenTelemetry for mcpwire. `instrument()` subscribes to mcpwire's diagnostics
 * channels and emits spans and metrics by OpenTelemetry's MCP conventions. Needs the optional peer
 * dependency `@opentelemetry/api` (1.x); nothing else in mcpwire loads it.
 */
export { instrument } from './instrument.js';
export type { InstrumentOptions } from './instrument.js';
