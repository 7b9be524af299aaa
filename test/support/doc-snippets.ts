/**
 * The fenced blocks of a Markdown document that the runnable-snippet convention marks
 * (`<lang> runnable`, `<lang> file=PATH`; COMMON.md and docs/testing.md): what to run and what to
 * write, with the line each block starts on. A block whose info string has anything after its
 * language is marked; a mark this convention does not know is returned as `invalid` with the
 * reason, so a typo (`sh runable`, `bash runnable`) fails instead of silently skipping the block.
 */

/** The languages a `runnable` block may have, and how each is run. */
export const RUNNABLE_LANGUAGES = ['sh', 'ts', 'js', 'mjs'] as const;
export type RunnableLanguage = (typeof RUNNABLE_LANGUAGES)[number];

export type Snippet =
  | { kind: 'run'; line: number; lang: RunnableLanguage; code: string; info: string }
  | { kind: 'file'; line: number; lang: string; path: string; code: string; info: string }
  | { kind: 'invalid'; line: number; info: string; reason: string };

/** The opening fence: up to three spaces, three or more backticks or tildes, the info string. */
const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;

/**
 * Every marked block of `markdown` in document order (unmarked blocks are left out). `line` is
 * the 1-based line of the opening fence; `code` is the block's content with the fence's
 * indentation removed, ending in a newline.
 */
export function markedSnippets(markdown: string): Snippet[] {
  const lines = markdown.split('\n');
  const found: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, rest] = open as unknown as [string, string, string, string];
    // A backtick fence's info string may not hold a backtick (CommonMark): that is inline code.
    if (fence.startsWith('`') && rest.includes('`')) continue;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = lines[j]!;
      const closing = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(close)?.[1];
      if (closing && closing[0] === fence[0] && closing.length >= fence.length) break;
      body.push(close.startsWith(indent) ? close.slice(indent.length) : close.trimStart());
    }
    const snippet = classify(rest.trim(), i + 1, body.length ? `${body.join('\n')}\n` : '');
    if (snippet) found.push(snippet);
    i = j;
  }
  return found;
}

function classify(info: string, line: number, code: string): Snippet | undefined {
  const [lang = '', ...marks] = info.split(/\s+/).filter(Boolean);
  const invalid = (reason: string): Snippet => ({ kind: 'invalid', line, info, reason });
  if (lang === 'runnable' || lang.startsWith('file='))
    return invalid('the language comes first: "<lang> ' + lang + '"');
  if (marks.length === 0) return undefined;
  if (marks.length > 1) return invalid(`one mark per block ("runnable" or "file=PATH"), got ${marks.join(' ')}`);
  const mark = marks[0]!;
  if (mark === 'runnable') {
    if (!(RUNNABLE_LANGUAGES as readonly string[]).includes(lang))
      return invalid(`"${lang}" is not a runnable language (${RUNNABLE_LANGUAGES.join(', ')})`);
    return { kind: 'run', line, lang: lang as RunnableLanguage, code, info };
  }
  if (mark.startsWith('file=')) {
    const target = mark.slice('file='.length);
    const parts = target.split('/');
    if (target === '' || target.startsWith('/') || parts.includes('..') || parts.includes(''))
      return invalid(`file=${target}: a relative path inside the project, without ".."`);
    return { kind: 'file', line, lang, path: target, code, info };
  }
  return invalid(`unknown mark "${mark}" (the marks are "runnable" and "file=PATH")`);
}
