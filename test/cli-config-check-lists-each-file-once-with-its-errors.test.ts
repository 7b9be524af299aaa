/**
 * `mcpwire config check` over real files in a temp home and project: a good user file, a project
 * `.mcp.json` that parses but has broken entries, and an explicit `--config` file that does not
 * parse. Each file is listed once with its verdict (a file with entry errors is not `ok`), each
 * error once, under its file, as FILE:LINE:COLUMN (an entry error at its field), and one summary
 * line ends the output: on stdout when all is well (exit 0), as the stderr `error:` line when not
 * (exit 2). `--json` carries the same positioned errors.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from './support/cli.js';
import { startHostHome } from './support/host-homes.js';

beforeAll(() => requireBuiltCli());

const count = (text: string, part: string) => text.split(part).length - 1;

describe('mcpwire config check', () => {
  it('lists each file once with its verdict and its errors under it, and ends with one summary line', async () => {
    const h = startHostHome({ hosts: [] });
    const user = h.write('.mcpwire/config.json', JSON.stringify({ mcpServers: { good: { command: 'node' } } }));
    const project = path.join(h.project, '.mcp.json');
    h.write(
      project,
      [
        '{',
        '  "mcpServers": {',
        '    "fine": { "command": "node" },',
        '    "nocmd": { "args": ["x"] },',
        '    "badurl": { "url": "ftp://example.com" },',
        '    "unset": {',
        '      "command": "node",',
        '      "env": { "TOKEN": "${CHECK_TEST_UNSET_VARIABLE}" }',
        '    }',
        '  }',
        '}',
      ].join('\n'),
    );
    const broken = h.write(
      path.join(h.project, 'broken.json'),
      '{\n  "mcpServers": {\n    "x": { "command": "a", }\n  ,,\n}',
    );

    const run = await runCli(['config', 'check', '--config', 'broken.json'], { env: h.env, cwd: h.project });
    expect(run.code).toBe(2);
    const out = run.stdout.trimEnd().split('\n');
    expect(out.filter((line) => !line.startsWith(' '))).toEqual([
      `ok     ${user}`,
      `error  ${project}`,
      `error  ${broken}`,
    ]);
    const under = (file: string) => {
      const at = out.findIndex((line) => line.endsWith(`  ${file}`));
      const rest = out.slice(at + 1);
      const end = rest.findIndex((line) => !line.startsWith(' '));
      return (end === -1 ? rest : rest.slice(0, end)).map((line) => line.trim());
    };
    expect(under(user)).toEqual([]);
    expect(under(project)).toEqual([
      // No "command" written: placed at the entry.
      `${project}:4:5: server "nocmd": needs a "command" (stdio) or a "url" (http, sse)`,
      `${project}:5:17: server "badurl": url must be an http:// or https:// URL`,
      expect.stringMatching(
        new RegExp(
          `^${project.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:8:16: server "unset": env.TOKEN: variable CHECK_TEST_UNSET_VARIABLE is not set`,
        ),
      ),
    ]);
    expect(under(broken)).toEqual([expect.stringMatching(new RegExp(`^${broken}:5:1: invalid JSON`))]);
    // Each error once in everything printed; the one stderr line is the summary.
    for (const needle of ['"nocmd"', '"badurl"', 'CHECK_TEST_UNSET_VARIABLE is not set', 'invalid JSON'])
      expect(count(run.stdout + run.stderr, needle), needle).toBe(1);
    expect(run.stderr).toBe(
      'error: 3 file(s) checked: 1 ok, 2 with errors; 4 config errors; 2 server(s): good, fine\n',
    );

    const json = await runCli(['config', 'check', '--config', 'broken.json', '--json'], { env: h.env, cwd: h.project });
    expect(json.code).toBe(2);
    const result = json.json<{ error: { errors: string[]; result: { errors: string[] } } }>().error;
    expect(result.errors).toContain(`${project}:5:17: server "badurl": url must be an http:// or https:// URL`);
    expect(result.result.errors).toEqual(result.errors);
  });

  it('all good: each file ok, the summary on stdout, nothing on stderr, exit 0', async () => {
    const h = startHostHome({ hosts: [] });
    const user = h.write('.mcpwire/config.json', JSON.stringify({ mcpServers: { good: { command: 'node' } } }));
    const run = await runCli(['config', 'check'], { env: h.env, cwd: h.project });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`ok     ${user}\n1 file(s) checked: 1 ok; 1 server(s): good\n`);
  });
});
