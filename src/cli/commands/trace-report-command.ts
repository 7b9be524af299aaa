/**
 * `mcpwire trace report FILE.jsonl [-o REPORT.html]`: the trace as one self-contained HTML page
 * (`inspect/report/`). Without `-o` the page is written beside the trace (`FILE.html`); the trace
 * itself is never overwritten.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TraceReadResult } from '../../inspect/trace/read-trace.js';
import { renderReport } from '../../inspect/report/report-html.js';
import { stringOption, UsageError, type ParsedArgs } from '../argv.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import type { Outcome } from '../outcome.js';

/** `FILE.jsonl` → `FILE.html` (any other name gets `.html` appended). */
export function defaultReportPath(trace: string): string {
  return trace.endsWith('.jsonl') ? `${trace.slice(0, -'.jsonl'.length)}.html` : `${trace}.html`;
}

/** Writes the report of `read` (the trace at `full`); a {@link UsageError} when the output is the trace. */
export async function traceReport(
  args: ParsedArgs,
  io: CliIO,
  read: TraceReadResult,
  full: string,
  problems: string[],
): Promise<Outcome> {
  const output = stringOption(args, 'output');
  const target = output === undefined ? defaultReportPath(full) : path.resolve(io.cwd, output);
  if (target === full) throw new UsageError(`the report would overwrite the trace ${full}; choose another -o`);
  const html = renderReport(read.records, path.basename(full), problems);
  try {
    await writeFile(target, html, 'utf8');
  } catch (error) {
    throw new CliError('REPORT_UNWRITABLE', `cannot write ${target}: ${(error as Error).message}`, EXIT.usage);
  }
  const lines = [`wrote ${target} (${read.records.length} records, ${Buffer.byteLength(html)} bytes)`];
  lines.push(...problems.map((p) => `note: ${p}`));
  return {
    json: { output: target, records: read.records.length, bytes: Buffer.byteLength(html), problems },
    text: lines.join('\n'),
  };
}
