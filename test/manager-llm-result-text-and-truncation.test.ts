/**
 * Tool results as text for a model (`resultToText`, `contentBlockToText`): every block type,
 * `structuredContent` only when no text block says it, `Error: ` for `isError`, and the cut at
 * `maxChars` (exact boundary, surrogate pairs kept whole) with its marker line. Results are
 * deep-frozen: the functions only read them.
 */
import { describe, expect, it } from 'vitest';
import { contentBlockToText, DEFAULT_MAX_RESULT_CHARS, resultToText } from '../src/llm/result-text.js';
import { McpError } from '../src/protocol/errors.js';
import type { CallToolResult, ContentBlock } from '../src/protocol/types.js';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

const base64Of = (bytes: number) => Buffer.alloc(bytes, 7).toString('base64');

/** The text of a frozen result, checking the result is unchanged afterwards. */
function textOf(result: CallToolResult, options?: { maxChars?: number }) {
  const snapshot = structuredClone(result);
  const out = resultToText(deepFreeze(result), options);
  expect(result).toEqual(snapshot);
  return out;
}

describe('contentBlockToText', () => {
  const rows: Array<[string, unknown, string]> = [
    ['text verbatim', { type: 'text', text: '  two\nlines  ' }, '  two\nlines  '],
    [
      'image size from the base64 length',
      { type: 'image', mimeType: 'image/png', data: base64Of(12_600) },
      '[image: image/png, 12.3 KiB]',
    ],
    [
      'small image in bytes (padding counted out)',
      { type: 'image', mimeType: 'image/gif', data: 'YWI=' },
      '[image: image/gif, 2 bytes]',
    ],
    ['one byte', { type: 'image', mimeType: 'image/gif', data: 'YQ==' }, '[image: image/gif, 1 byte]'],
    [
      'base64 with line breaks',
      { type: 'image', mimeType: 'image/gif', data: 'YWJj\nZGVm\n' },
      '[image: image/gif, 6 bytes]',
    ],
    [
      'audio in MiB',
      { type: 'audio', mimeType: 'audio/wav', data: base64Of(2 * 1024 * 1024) },
      '[audio: audio/wav, 2.0 MiB]',
    ],
    ['image without data or type', { type: 'image' }, '[image: unknown type, 0 bytes]'],
    [
      'resource link with name and type',
      { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', mimeType: 'text/plain' },
      '[resource: file:///a.txt (a.txt, text/plain)]',
    ],
    [
      'resource link with a name only',
      { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' },
      '[resource: file:///a.txt (a.txt)]',
    ],
    [
      'embedded text resource: its text',
      { type: 'resource', resource: { uri: 'file:///n.md', mimeType: 'text/markdown', text: '# Notes' } },
      '# Notes',
    ],
    [
      'embedded blob resource',
      { type: 'resource', resource: { uri: 'file:///b.bin', mimeType: 'application/octet-stream', blob: 'AAEC' } },
      '[resource: file:///b.bin, application/octet-stream, 3 bytes]',
    ],
    [
      'embedded blob without a type',
      { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAEC' } },
      '[resource: file:///b.bin, 3 bytes]',
    ],
    ['unknown block type', { type: 'video', url: 'x' }, '[video block]'],
    ['block without a type', { text: 'x' }, '[unknown block]'],
    ['not an object', null, '[unknown block]'],
    ['embedded resource without a resource', { type: 'resource' }, '[resource: (no uri)]'],
  ];
  it.each(rows)('%s', (_name, block, expected) => {
    expect(contentBlockToText(deepFreeze(block))).toBe(expected);
  });
});

describe('resultToText', () => {
  it('joins the blocks with newlines', () => {
    const content: ContentBlock[] = [
      { type: 'text', text: 'found 2 files' },
      { type: 'resource_link', uri: 'file:///a', name: 'a' },
      { type: 'image', mimeType: 'image/png', data: 'AAAA' },
    ];
    expect(textOf({ content })).toEqual({
      text: 'found 2 files\n[resource: file:///a (a)]\n[image: image/png, 3 bytes]',
      truncated: false,
      totalChars: 67,
    });
  });

  it('appends structuredContent as pretty JSON only when no block is text', () => {
    expect(textOf({ content: [], structuredContent: { sum: 7, parts: [3, 4] } }).text).toBe(
      '{\n  "sum": 7,\n  "parts": [\n    3,\n    4\n  ]\n}',
    );
    expect(
      textOf({ content: [{ type: 'image', mimeType: 'image/png', data: 'AAAA' }], structuredContent: { ok: true } })
        .text,
    ).toBe('[image: image/png, 3 bytes]\n{\n  "ok": true\n}');
    expect(textOf({ content: [{ type: 'text', text: '{"sum":7}' }], structuredContent: { sum: 7 } }).text).toBe(
      '{"sum":7}',
    );
    expect(textOf({ content: [], structuredContent: 'plain' }).text).toBe('"plain"');
  });

  it('marks error results', () => {
    expect(textOf({ content: [{ type: 'text', text: 'no such file' }], isError: true })).toEqual({
      text: 'Error: no such file',
      truncated: false,
      totalChars: 19,
    });
    expect(textOf({ content: [], isError: true }).text).toBe('Error: (no content)');
    expect(textOf({ content: [], isError: false }).text).toBe('');
  });

  it('never throws for odd content', () => {
    const odd = {
      content: [{ type: 'text' }, 42, { type: 'resource', resource: 'x' }],
      structuredContent: undefined,
    } as unknown as CallToolResult;
    expect(textOf(odd).text).toBe('\n[unknown block]\n[resource: (no uri)]');
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(resultToText({ content: [], structuredContent: circular }).text).toBe(
      '[structuredContent: not serializable]',
    );
  });
});

describe('resultToText truncation', () => {
  const ten = { content: [{ type: 'text', text: '0123456789' }] } satisfies CallToolResult;
  /** What a cut text reads as: `kept`, then the marker saying it shows `shown` of `total` characters. */
  const cut = (kept: string, shown: number, total: number) => ({
    text: `${kept}${kept === '' ? '' : '\n'}[… truncated: showing ${shown} of ${total} characters]`,
    truncated: true,
    totalChars: total,
  });

  it('keeps a text of exactly maxChars whole', () => {
    expect(textOf(ten, { maxChars: 10 })).toEqual({ text: '0123456789', truncated: false, totalChars: 10 });
  });

  it('cuts one past maxChars and says how much it shows', () => {
    expect(textOf(ten, { maxChars: 9 })).toEqual(cut('012345678', 9, 10));
  });

  it('counts the Error: prefix as part of the text', () => {
    expect(textOf({ ...ten, isError: true }, { maxChars: 10 })).toEqual(cut('Error: 012', 10, 17));
  });

  it('never cuts inside a surrogate pair', () => {
    const emoji = { content: [{ type: 'text', text: 'ab😀cd' }] } satisfies CallToolResult; // 😀 is 2 UTF-16 code units
    expect(textOf(emoji, { maxChars: 3 })).toEqual(cut('ab', 2, 6));
    expect(textOf(emoji, { maxChars: 4 })).toEqual(cut('ab😀', 4, 6));
    expect(textOf(emoji, { maxChars: 2 }).text).toBe('ab\n[… truncated: showing 2 of 6 characters]');
  });

  it('keeps a lone high surrogate that has no pair behind it', () => {
    const lone = { content: [{ type: 'text', text: 'ab\uD83Dxyz' }] } satisfies CallToolResult;
    expect(textOf(lone, { maxChars: 3 }).text).toBe('ab\uD83D\n[… truncated: showing 3 of 6 characters]');
  });

  it('at maxChars 0 shows only the marker', () => {
    expect(textOf(ten, { maxChars: 0 })).toEqual(cut('', 0, 10));
  });

  it('defaults to 100 000 characters; Infinity keeps everything', () => {
    expect(DEFAULT_MAX_RESULT_CHARS).toBe(100_000);
    const exact = { content: [{ type: 'text', text: 'x'.repeat(100_000) }] } satisfies CallToolResult;
    expect(textOf(exact).truncated).toBe(false);
    const over = { content: [{ type: 'text', text: 'x'.repeat(100_001) }] } satisfies CallToolResult;
    const cut = textOf(over);
    expect(cut.truncated).toBe(true);
    expect(cut.text.endsWith('\n[… truncated: showing 100000 of 100001 characters]')).toBe(true);
    expect(textOf(over, { maxChars: Infinity })).toEqual({
      text: over.content[0]!.text,
      truncated: false,
      totalChars: 100_001,
    });
  });

  it('rejects a maxChars that is negative or not a number', () => {
    for (const maxChars of [-1, Number.NaN]) {
      let caught: unknown;
      try {
        resultToText(ten, { maxChars });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(McpError);
      expect(caught).toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
  });
});
