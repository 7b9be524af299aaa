/**
 * `--otlp-endpoint URL [--otlp-header 'K: V' ...]`: the spans of every traced request, sent live
 * to an OTLP/HTTP receiver as each request completes (the same spans `trace export --format
 * otlp-json` writes). The export runs beside the traffic and never holds it up; the command's
 * exit waits at most 2 s for a receiver that does not answer.
 */
import { OtlpHttpExporter } from '../inspect/export/otlp-http-exporter.js';
import { LiveSpans } from '../inspect/export/trace-spans.js';
import type { TraceSink } from '../observe/trace-sink.js';
import { flag, listOption, stringOption, UsageError, type ParsedArgs } from './argv.js';
import type { CliIO } from './io.js';

/** How long the exit waits for the last spans to go out. */
const EXIT_GRACE_MS = 2_000;

export interface OtlpOutput {
  sink: TraceSink;
  close(): Promise<void>;
}

/** `--otlp-header` values as headers; a malformed one is named by position, never echoed (it may hold a key). */
function otlpHeaders(items: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  items.forEach((item, index) => {
    const at = item.indexOf(':');
    const name = at > 0 ? item.slice(0, at).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new UsageError(`--otlp-header #${index + 1} expects "Name: value" (its value is not shown)`);
    headers[name] = item.slice(at + 1).trim();
  });
  return headers;
}

/** The live OTLP export the command line asks for, or undefined. Throws `UsageError` for a bad URL or header. */
export function openOtlp(args: ParsedArgs, io: CliIO): OtlpOutput | undefined {
  const endpoint = stringOption(args, 'otlp-endpoint');
  const headerItems = listOption(args, 'otlp-header');
  if (endpoint === undefined) {
    if (headerItems.length > 0) throw new UsageError('--otlp-header needs --otlp-endpoint URL');
    return undefined;
  }
  let exporter: OtlpHttpExporter;
  try {
    exporter = new OtlpHttpExporter({
      endpoint,
      headers: otlpHeaders(headerItems),
      onNote: (note) => io.stderr.write(`mcpwire: ${note}\n`),
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--otlp-endpoint expects an http(s) URL: ${(error as Error).message}`);
  }
  const spans = new LiveSpans({ includePayloads: flag(args, 'include-payloads') });
  let broken = false;
  return {
    sink: (record) => {
      if (broken) return;
      try {
        exporter.push(spans.add(record));
      } catch (error) {
        // A record the span builder cannot take must not touch the traffic: stop exporting instead.
        broken = true;
        io.stderr.write(`mcpwire: OTLP export stopped: ${(error as Error).message}\n`);
      }
    },
    close: async () => {
      exporter.push(spans.finish());
      await exporter.close(EXIT_GRACE_MS);
    },
  };
}
