/**
 * `mcpwire trace check`: lints every recorded message against the rules of the revision in force
 * for it — mcpwire's own rules (`src/inspect/message-rules`, always) and, given a schemas
 * directory, the official JSON Schema of that revision. MCP Apps bridge records (`lane: 'ui'`)
 * are not MCP wire traffic: they are left out, and the MCP records around them are judged as if
 * they were not there.
 */
import { lintFrames, type RuleFrame } from '../message-rules/lint-frames.js';
import { openSpecSchemas } from './schema-check.js';
import { isUiLane, type TraceDirection, type TraceRecord } from '../../observe/trace-record.js';

/** One broken rule in a trace. */
export interface Violation {
  /** Index of the record in the array checked. */
  index: number;
  /** The record's line in its file, when `lines` was given. */
  line?: number;
  server: string;
  dir: TraceDirection;
  id?: string | number;
  method?: string;
  /** A short stable id: one of `MESSAGE_RULES` (`jsonrpc.id-type`), or `schema.<Definition>` for schema failures. */
  rule: string;
  /** Human-readable; names the field path. */
  message: string;
  /** The field path: `result.tools[0].name` for rules, ajv's instance path (`/result/tools/0`) for the schema. */
  path?: string;
  /** The revision the message was judged by. */
  revision?: string;
  source: 'rules' | 'schema';
}

/** Options of {@link checkTrace}. */
export interface CheckTraceOptions {
  /** A directory of official schemas, `<dir>/<revision>/schema.json`; without it only the rules run. */
  schemasDir?: string;
  /** `lines[i]`: the file line of `records[i]` (as `readTrace` returns them), copied into violations. */
  lines?: readonly number[];
  /** Told once per revision that has messages but no schema in `schemasDir`, and how many went unchecked. */
  onNote?: (note: string) => void;
}

function frameOf(record: TraceRecord): RuleFrame {
  const frame: RuleFrame = { server: record.server, dir: record.dir };
  if (record.kind === 'event') frame.event = record.event ?? 'event';
  else if (record.message !== undefined) frame.message = record.message;
  else if (record.kind === 'invalid') frame.unparsed = true;
  if (record.protocolVersion !== undefined) frame.notedRevision = record.protocolVersion;
  return frame;
}

/**
 * The violations in `records` (wire order; servers may interleave), sorted by record index,
 * rule findings before schema findings of the same record. Never throws for any record content;
 * throws `INVALID_ARGUMENT` when `schemasDir` is given but is not a directory.
 */
export function checkTrace(records: readonly TraceRecord[], options: CheckTraceOptions = {}): Violation[] {
  const schemas = options.schemasDir === undefined ? undefined : openSpecSchemas(options.schemasDir);
  // The positions of the MCP records: what is linted, and how a finding maps back to `records`.
  const positions: number[] = [];
  records.forEach((record, position) => {
    if (!isUiLane(record)) positions.push(position);
  });
  const { violations: found, contexts } = lintFrames(positions.map((position) => frameOf(records[position]!)));
  const out: Violation[] = found.map((v) => {
    const violation: Violation = {
      index: positions[v.frame]!,
      server: v.server,
      dir: v.dir,
      rule: v.rule,
      message: v.message,
      source: 'rules',
    };
    if (v.id !== undefined) violation.id = v.id;
    if (v.method !== undefined) violation.method = v.method;
    if (v.path !== undefined) violation.path = v.path;
    if (v.revision !== undefined) violation.revision = v.revision;
    return violation;
  });

  if (schemas) {
    const unchecked = new Map<string, number>();
    contexts.forEach((context, frame) => {
      const index = positions[frame]!;
      const record = records[index]!;
      const items: unknown[] = Array.isArray(record.message) ? record.message : [record.message];
      context.messages.forEach((m, i) => {
        if (m.revision === undefined) return;
        if (!schemas.has(m.revision)) {
          unchecked.set(m.revision, (unchecked.get(m.revision) ?? 0) + 1);
          return;
        }
        const message = items[i];
        const pathPrefix = Array.isArray(record.message) ? `/${i}` : '';
        for (const f of schemas.check(m.revision, {
          message,
          sender: m.sender,
          answers: m.answers,
          requestParams: m.requestParams,
          pathPrefix,
        })) {
          const violation: Violation = {
            index,
            server: record.server,
            dir: record.dir,
            rule: `schema.${f.definition}`,
            message: f.message,
            path: f.path,
            revision: m.revision,
            source: 'schema',
          };
          const id = (message as { id?: unknown } | undefined)?.id;
          if (typeof id === 'string' || typeof id === 'number') violation.id = id;
          const method = (message as { method?: unknown } | undefined)?.method;
          if (typeof method === 'string') violation.method = method;
          else if (m.answers !== undefined) violation.method = m.answers;
          out.push(violation);
        }
      });
    });
    for (const [revision, count] of unchecked) {
      options.onNote?.(
        `no schema for revision ${revision} in ${schemas.dir}: ${count} message${count === 1 ? '' : 's'} not checked against a schema`,
      );
    }
  }

  out.sort((a, b) => a.index - b.index || (a.source === b.source ? 0 : a.source === 'rules' ? -1 : 1));
  if (options.lines) {
    for (const v of out) {
      const line = options.lines[v.index];
      if (line !== undefined) v.line = line;
    }
  }
  return out;
}
