/**
 * `mcpwire trace export FILE.jsonl --format otlp-json|chrome-trace|har [-o OUT]
 * [--include-payloads]`: the trace as a document other tools open. Written to OUT, or to stdout
 * when `-o` is absent or `-`. A HAR of a trace without HTTP traffic is refused, naming the file.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EXPORT_FORMATS, exportTrace, hasHttpTraffic, type ExportFormat } from '../../inspect/export/export-trace.js';
import type { TraceReadResult } from '../../inspect/trace/read-trace.js';
import { flag, stringOption, UsageError, type ParsedArgs } from '../argv.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import type { Outcome } from '../outcome.js';

function formatOf(args: ParsedArgs): ExportFormat {
  const format = stringOption(args, 'format');
  if (format === undefined) throw new UsageError(`trace export needs --format ${EXPORT_FORMATS.join('|')}`);
  if (!(EXPORT_FORMATS as readonly string[]).includes(format))
    throw new UsageError(`unknown export format "${format}" (${EXPORT_FORMATS.join(', ')})`);
  return format as ExportFormat;
}

/** Runs `trace export` on a trace already read from `file` (its problems become notes on stderr). */
export async function traceExport(args: ParsedArgs, io: CliIO, read: TraceReadResult, file: string): Promise<Outcome> {
  const format = formatOf(args);
  if (format === 'har' && !hasHttpTraffic(read.records))
    throw new CliError(
      'NO_HTTP_TRAFFIC',
      `${file} holds no HTTP traffic (a stdio trace): a HAR has nothing to show; try --format chrome-trace or otlp-json`,
      EXIT.usage,
    );
  for (const problem of read.problems) io.stderr.write(`note: ${file}:${problem.line}: ${problem.message}\n`);
  const result = exportTrace(read.records, format, { includePayloads: flag(args, 'include-payloads') });
  const text = `${JSON.stringify(result.document)}\n`;
  const output = stringOption(args, 'output');
  if (output === undefined || output === '-') {
    io.stdout.write(text);
    return { json: undefined, text: '', silent: true };
  }
  const target = path.resolve(io.cwd, output);
  try {
    await writeFile(target, text);
  } catch (error) {
    throw new CliError('EXPORT_UNWRITABLE', `cannot write ${target}: ${(error as Error).message}`, EXIT.usage);
  }
  return {
    json: { file: target, format, [result.unit]: result.count },
    text: `wrote ${result.count} ${result.unit} (${format}) to ${target}`,
  };
}
