/**
 * How the runnable-snippet test reads a Markdown document (`test/support/doc-snippets.ts`):
 * `<lang> runnable` and `<lang> file=PATH` blocks are found with their line and content in
 * document order, unmarked blocks are text, and a mark it does not know is refused with the
 * reason, so a typo cannot skip a block silently.
 */
import { describe, expect, it } from 'vitest';
import { markedSnippets } from './support/doc-snippets.js';

const fence = '```';

describe('marked documentation blocks', () => {
  it('finds runnable and file blocks in order, with their first line and content; plain blocks are text', () => {
    const doc = [
      '# Title', // 1
      `${fence}sh`, // 2: plain
      'mcpwire tools',
      fence,
      `${fence}json file=conf/.mcp.json`, // 5
      '{"mcpServers": {}}',
      fence,
      '  ~~~~ts runnable', // 8: indented, tildes, longer fence
      '  const x: number = 1;',
      '    console.log(x);',
      '  ```', // not the closing fence: backticks
      '  ~~~~',
      `${fence}mjs runnable`, // 13
      fence,
    ].join('\n');
    expect(markedSnippets(doc)).toEqual([
      {
        kind: 'file',
        line: 5,
        lang: 'json',
        path: 'conf/.mcp.json',
        code: '{"mcpServers": {}}\n',
        info: 'json file=conf/.mcp.json',
      },
      { kind: 'run', line: 8, lang: 'ts', code: 'const x: number = 1;\n  console.log(x);\n```\n', info: 'ts runnable' },
      { kind: 'run', line: 13, lang: 'mjs', code: '', info: 'mjs runnable' },
    ]);
  });

  it.each([
    ['sh runable', /unknown mark "runable"/],
    ['bash runnable', /"bash" is not a runnable language/],
    ['runnable', /the language comes first/],
    ['sh runnable file=x.sh', /one mark per block/],
    ['json file=/etc/passwd', /a relative path inside the project/],
    ['json file=../x.json', /a relative path inside the project/],
    ['json file=', /a relative path inside the project/],
  ])('refuses %j with the reason', (info, reason) => {
    const [snippet] = markedSnippets(`text\n${fence}${info}\necho\n${fence}\n`);
    expect(snippet).toMatchObject({ kind: 'invalid', line: 2, info });
    expect(snippet!.kind === 'invalid' && snippet!.reason).toMatch(reason);
  });

  it('leaves inline code and unclosed blocks alone, and a block after them is still found', () => {
    const doc = `${fence}sh runnable ${fence} is inline\n\n${fence}sh runnable\necho hi\n${fence}\n`;
    expect(markedSnippets(doc)).toEqual([{ kind: 'run', line: 3, lang: 'sh', code: 'echo hi\n', info: 'sh runnable' }]);
  });
});
