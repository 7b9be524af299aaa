/**
 * Loader for the golden wire transcripts in `spec-fixtures/transcripts/`.
 *
 * Format: one file per revision and flow, named `<revision>-<flow>.jsonl`
 * (`2025-11-25-initialize-and-list.jsonl`). Each non-blank line is
 * `{"dir":"c2s"|"s2c","msg":<a JSON-RPC message, or a batch array where the revision has them>}`
 * in wire order. Blank lines are ignored; there are no comments (JSON Lines has none).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MessageDirection } from './spec-schemas.js';

/** The folder holding the transcripts. */
export const TRANSCRIPTS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../spec-fixtures/transcripts',
);

/** `c2s` = client → server, `s2c` = server → client. */
export type TranscriptDir = 'c2s' | 's2c';

/** One line of a transcript. */
export interface TranscriptLine {
  dir: TranscriptDir;
  msg: unknown;
  /** 1-based line number in the file, for error messages. */
  line: number;
}

/** One transcript file. */
export interface Transcript {
  /** File name without `.jsonl`, e.g. `2026-07-28-discover-and-call`. */
  name: string;
  file: string;
  revision: string;
  /** The part of the name after the revision, e.g. `discover-and-call`. */
  flow: string;
  lines: TranscriptLine[];
}

const NAME = /^(\d{4}-\d{2}-\d{2})-([a-z0-9][a-z0-9-]*)\.jsonl$/;

/** The sender of a line in the terms of `validateMessage`. */
export function senderOf(dir: TranscriptDir): MessageDirection {
  return dir === 'c2s' ? 'client' : 'server';
}

/** Parses one transcript file. Throws an Error naming the file and line for any malformed line or name. */
export function loadTranscript(file: string): Transcript {
  const base = path.basename(file);
  const match = NAME.exec(base);
  if (!match) throw new Error(`${file}: a transcript is named <YYYY-MM-DD>-<flow>.jsonl`);
  const lines: TranscriptLine[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, index) => {
      if (text.trim() === '') return;
      const where = `${base}:${index + 1}`;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw new Error(`${where}: not JSON: ${(error as Error).message}`, { cause: error });
      }
      const entry = parsed as Record<string, unknown>;
      if (
        typeof parsed !== 'object' ||
        parsed === null ||
        (entry.dir !== 'c2s' && entry.dir !== 's2c') ||
        !('msg' in entry)
      ) {
        throw new Error(`${where}: a line is {"dir":"c2s"|"s2c","msg":…}`);
      }
      const extra = Object.keys(entry).filter((k) => k !== 'dir' && k !== 'msg');
      if (extra.length > 0) throw new Error(`${where}: unexpected field(s) ${extra.join(', ')}`);
      lines.push({ dir: entry.dir, msg: entry.msg, line: index + 1 });
    });
  return { name: base.slice(0, -'.jsonl'.length), file, revision: match[1]!, flow: match[2]!, lines };
}

/** Every transcript in {@link TRANSCRIPTS_DIR} (or `dir`), sorted by name. */
export function loadTranscripts(dir: string = TRANSCRIPTS_DIR): Transcript[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => loadTranscript(path.join(dir, f)));
}

/**
 * For each line, the methods of the requests the other side sent earlier, by id (batch elements
 * included): what a result on that line answers. Pass it as `requestMethods` to `validateMessage`.
 */
export function requestMethodsBefore(transcript: Transcript, index: number): Map<string | number, string> {
  const dir = transcript.lines[index]?.dir;
  const methods = new Map<string | number, string>();
  for (const entry of transcript.lines.slice(0, index)) {
    if (entry.dir === dir) continue;
    for (const m of Array.isArray(entry.msg) ? entry.msg : [entry.msg]) {
      const message = m as Record<string, unknown> | null;
      if (
        message &&
        typeof message.method === 'string' &&
        (typeof message.id === 'string' || typeof message.id === 'number')
      ) {
        methods.set(message.id, message.method);
      }
    }
  }
  return methods;
}
