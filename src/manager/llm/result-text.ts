/**
 * Tool results as text for an LLM: every content block rendered (text verbatim, binary blocks as
 * a one-line summary), `structuredContent` when no text says it already, `Error: ` before the
 * text of an `isError` result, and a cap with a clear marker. Pure; the result passed in is
 * never changed, so the caller keeps the full result.
 */
import type { CallToolResult, ContentBlock } from '../../protocol/types.js';

/** Default cap of {@link resultToText}, in UTF-16 code units. */
export const DEFAULT_MAX_RESULT_CHARS = 100_000;

export interface ResultText {
  text: string;
  /** True when the text was cut at the cap (the marker line says so too). */
  truncated: boolean;
  /** Length of the whole text before any cut. */
  totalChars: number;
}

/** The bytes a base64 string encodes. */
function base64Bytes(data: string): number {
  const clean = data.replace(/\s+/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** One content block as text. Unknown block types become `[<type> block]`; never throws. */
export function contentBlockToText(block: ContentBlock | Record<string, unknown>): string {
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case 'text':
      return typeof b.text === 'string' ? b.text : '';
    case 'image':
    case 'audio':
      return `[${b.type}: ${String(b.mimeType ?? 'unknown type')}, ${size(typeof b.data === 'string' ? base64Bytes(b.data) : 0)}]`;
    case 'resource_link': {
      const details = [b.name, b.mimeType].filter((v) => typeof v === 'string' && v !== '').join(', ');
      return `[resource: ${String(b.uri)}${details ? ` (${details})` : ''}]`;
    }
    case 'resource': {
      const r = (b.resource ?? {}) as Record<string, unknown>;
      if (typeof r.text === 'string') return r.text;
      const bytes = typeof r.blob === 'string' ? base64Bytes(r.blob) : 0;
      return `[resource: ${String(r.uri)}, ${String(r.mimeType ?? 'application/octet-stream')}, ${bytes} bytes]`;
    }
    default:
      return `[${typeof b.type === 'string' ? b.type : 'unknown'} block]`;
  }
}

/**
 * The text of a tool result. Blocks are joined by newlines; `structuredContent` is appended as
 * pretty JSON only when no block is text (servers since 2025-06-18 usually send both). Past
 * `maxChars` the text is cut (never inside a surrogate pair) and a line
 * `[… truncated: showing X of Y characters]` follows.
 */
export function resultToText(result: CallToolResult, options: { maxChars?: number } = {}): ResultText {
  const blocks = Array.isArray(result.content) ? result.content : [];
  const parts = blocks.map((block) => contentBlockToText(block));
  const hasText = blocks.some((block) => (block as { type?: unknown }).type === 'text');
  if (!hasText && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent, null, 2));
  let text = parts.join('\n');
  if (result.isError) text = `Error: ${text}`;
  const totalChars = text.length;
  const max = options.maxChars ?? DEFAULT_MAX_RESULT_CHARS;
  if (totalChars <= max) return { text, truncated: false, totalChars };
  let cut = Math.max(0, max);
  const code = text.charCodeAt(cut - 1);
  if (cut > 0 && code >= 0xd800 && code <= 0xdbff) cut--; // keep a surrogate pair whole
  return { text: `${text.slice(0, cut)}\n[… truncated: showing ${cut} of ${totalChars} characters]`, truncated: true, totalChars };
}
