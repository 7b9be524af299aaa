// What `node --import` loads to give a process OpenTelemetry before its own code runs (how a
// user traces `mcpwire gateway`: `node --import ./otel.mjs mcpwire/dist/cli.js gateway …`):
// otel-node.mjs's set-up for the service `$OTEL_SERVICE_NAME` (default `gateway`). Spans go out
// as each one ends (a simple processor), so a test awaits them at the receiver before it stops
// the process.
import { startTelemetry } from './otel-node.mjs';

startTelemetry(process.env.OTEL_SERVICE_NAME ?? 'gateway');
