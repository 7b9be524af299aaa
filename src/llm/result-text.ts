/**
 * A tool result as the text an LLM reads back: content blocks rendered one per line, binary
 * content summarised, `structuredContent` as JSON when no text block carries the answer, errors
 * marked, and the whole cut to a size budget with a visible marker. Pure: the result object is
 * only read, so the caller keeps the full result (for logs, UIs, or a second look).
 *
 * Lengths count UTF-16 code units (JavaScript's `string.length`), as the budget does.
 */
import { McpError } from '../protocol/errors.js';
import { jsonText } from '../protocol/json-text.js';
import { checkOptions, optionKeys } from '../protocol/option-keys.js';
import type { CallToolResult } from '../protocol/types.js';

/** The default {@link ResultTextOptions.maxChars}. */
export const DEFAULT_MAX_RESULT_CHARS = 100_000;

export interface ResultTextOptions {
  /** Longest text kept before the truncation marker; default 100 000; `Infinity` keeps all. */
  maxChars?: number;
  /** Where the result came from, as markers name it: `tool "search" (server "web")`. Default: not named. */
  source?: string;
}

const RESULT_TEXT_OPTION_KEYS = optionKeys<ResultTextOptions>(
  'resultToText options',
  { maxChars: true, source: true },
  { max: 'maxChars', maxLength: 'maxChars', limit: 'maxChars' },
);

export interface ResultText {
  /** The rendered text, cut to `maxChars` plus a marker line when `truncated`. */
  text: string;
  truncated: boolean;
  /** Length of the whole rendered text before any cut. */
  totalChars: number;
  /**
   * Why part of the result is missing from `text` (a marker stands in its place), e.g.
   * `structuredContent is nested more than 1000 levels deep`; absent when nothing is.
   */
  omitted?: string;
}

/**
 * The text of `result`:
 *
 * - each block through {@link contentBlockToText}, joined with newlines;
 * - `structuredContent` appended as 2-space JSON only when no block is a text block (servers of
 *   2025-06-18 on often send the same data both ways);
 * - `structuredContent` nested deeper than `MAX_JSON_DEPTH` (1000) levels ⇒ the marker
 *   `[structuredContent of <source> not shown: nested more than 1000 levels deep]` instead, and
 *   `omitted` says so (a peer can send any depth; `JSON.stringify` would overflow the stack);
 * - `isError: true` ⇒ the text starts with `Error: ` (`Error: (no content)` when empty);
 * - longer than `maxChars` ⇒ cut there (one code unit earlier when the cut would split a
 *   surrogate pair) and followed by the line `[… truncated: showing X of Y characters]`; the
 *   marker is not counted against `maxChars`.
 *
 * Throws `McpError` `INVALID_ARGUMENT` when `maxChars` is negative or not a number, or for an
 * unknown key in `options`; never throws for the result's content.
 */
export function resultToText(result: CallToolResult, options: ResultTextOptions = {}): ResultText {
  checkOptions(options, RESULT_TEXT_OPTION_KEYS);
  const maxChars = options.maxChars ?? DEFAULT_MAX_RESULT_CHARS;
  if (typeof maxChars !== 'number' || Number.isNaN(maxChars) || maxChars < 0) {
    throw new McpError('INVALID_ARGUMENT', `maxChars must be a number of at least 0, got ${String(maxChars)}`);
  }
  const { text: full, omitted } = renderResult(result, options.source);
  const totalChars = full.length;
  const extra = omitted === undefined ? {} : { omitted };
  if (totalChars <= maxChars) return { text: full, truncated: false, totalChars, ...extra };
  let cut = Math.floor(maxChars);
  if (cut > 0 && isHighSurrogate(full.charCodeAt(cut - 1)) && isLowSurrogate(full.charCodeAt(cut))) cut -= 1;
  const marker = `[… truncated: showing ${cut} of ${totalChars} characters]`;
  const head = full.slice(0, cut);
  return { text: head === '' ? marker : `${head}\n${marker}`, truncated: true, totalChars, ...extra };
}

/**
 * One content block as text. Text: verbatim. Image and audio: `[image: image/png, 12.3 KiB]`
 * (the size decoded from the base64 length). Resource link: `[resource: <uri> (name, mimeType)]`.
 * Embedded resource: its text, or `[resource: <uri>, mimeType, N bytes]` for a blob. Any other
 * block: `[<type> block]`. Never throws, whatever the value.
 */
export function contentBlockToText(block: unknown): string {
  if (typeof block !== 'object' || block === null) return '[unknown block]';
  const fields = block as Record<string, unknown>;
  const type = fields.type;
  switch (type) {
    case 'text':
      return typeof fields.text === 'string' ? fields.text : '';
    case 'image':
    case 'audio':
      return `[${type}: ${text(fields.mimeType) ?? 'unknown type'}, ${formatSize(base64Bytes(fields.data))}]`;
    case 'resource_link': {
      const extras = [text(fields.name), text(fields.mimeType)].filter((part) => part !== undefined);
      return `[resource: ${text(fields.uri) ?? '(no uri)'}${extras.length > 0 ? ` (${extras.join(', ')})` : ''}]`;
    }
    case 'resource': {
      const resource =
        typeof fields.resource === 'object' && fields.resource !== null
          ? (fields.resource as Record<string, unknown>)
          : {};
      if (typeof resource.text === 'string') return resource.text;
      const size = typeof resource.blob === 'string' ? `${base64Bytes(resource.blob)} bytes` : undefined;
      const parts = [text(resource.uri) ?? '(no uri)', text(resource.mimeType), size].filter(
        (part) => part !== undefined,
      );
      return `[resource: ${parts.join(', ')}]`;
    }
    default:
      return typeof type === 'string' && type !== '' ? `[${type} block]` : '[unknown block]';
  }
}

function renderResult(result: CallToolResult, source: string | undefined): { text: string; omitted?: string } {
  const blocks: unknown[] = Array.isArray(result?.content) ? result.content : [];
  const parts = blocks.map((block) => contentBlockToText(block));
  const hasTextBlock = blocks.some(
    (block) => typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text',
  );
  let omitted: string | undefined;
  if (!hasTextBlock && result?.structuredContent !== undefined) {
    const json = jsonText(result.structuredContent, 2);
    if (json.text !== undefined) parts.push(json.text);
    else if (json.problem.startsWith('nested')) {
      omitted = `structuredContent is ${json.problem}`;
      parts.push(`[structuredContent${source ? ` of ${source}` : ''} not shown: ${json.problem}]`);
    } else {
      omitted = `structuredContent is ${json.problem}`;
      parts.push('[structuredContent: not serializable]');
    }
  }
  const body = parts.join('\n');
  const text = result?.isError !== true ? body : body === '' ? 'Error: (no content)' : `Error: ${body}`;
  return omitted === undefined ? { text } : { text, omitted };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Decoded byte length of base64 (standard or URL alphabet, padded or not, whitespace ignored). */
function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const compact = data.replace(/\s+/g, '');
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor(((compact.length - padding) * 3) / 4));
}

/** `512 bytes`, `12.3 KiB`, `4.0 MiB`, `1.2 GiB`. */
function formatSize(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
