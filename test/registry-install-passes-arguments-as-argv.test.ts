/**
 * What `registry add` writes reaches the server as argv, verbatim, through mcpwire's real stdio
 * transport: a fake `npx` first on PATH records the argv it was started with. The publisher's
 * `; rm -rf ~`, `$(touch $MARK)` and backticks are single arguments no shell ever sees (the
 * $MARK file is never made), `${HOME}` arrives literal (mcpwire's own `${VAR}` expansion does not
 * take it), and an identifier that starts with `-` is refused before anything is written.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from './support/cli.js';
import { useConfigDirs } from './support/config-dirs.js';
import { startFakeRegistry, type FakeRegistry } from './support/fake-registry.js';

const dirs = useConfigDirs('mcpwire-registry-argv-');
let registry: FakeRegistry;

beforeAll(async () => {
  requireBuiltCli();
  registry = await startFakeRegistry();
});
afterAll(() => registry?.close());

/** A fake `npx` in `<root>/bin` that writes its argv (JSON) to `<root>/argv.json` and exits. */
function fakeNpx(): { bin: string; argv: string } {
  const bin = path.join(dirs.root, 'bin');
  const argv = path.join(dirs.root, 'argv.json');
  mkdirSync(bin);
  writeFileSync(
    path.join(bin, 'npx'),
    `#!${process.execPath}\nrequire('fs').writeFileSync(${JSON.stringify(argv)}, JSON.stringify(process.argv.slice(2)));\n`,
  );
  chmodSync(path.join(bin, 'npx'), 0o755);
  return { bin, argv };
}

describe('a registry server is started with its arguments as argv', () => {
  it('passes every publisher value verbatim, runs no shell, expands no ${VAR}', async () => {
    const { bin, argv } = fakeNpx();
    const mark = path.join(dirs.root, 'marked');
    const env = {
      HOME: dirs.home,
      XDG_CONFIG_HOME: '',
      APPDATA: '',
      CODEX_HOME: '',
      MARK: mark,
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
    };
    const add = await runCli(['registry', 'add', 'io.example/inject', '--registry', registry.url, '--yes'], {
      env,
      cwd: dirs.project,
    });
    expect(add.code, add.stderr).toBe(0);
    // Shown quoted, one word per argument, before it was written.
    expect(add.stdout).toContain(`npx -y inject-mcp@6.6.6 '; rm -rf ~' '$(touch $MARK)' '\`touch $MARK\`' '\${HOME}'`);
    const written = readFileSync(path.join(dirs.home, '.mcpwire', 'config.json'), 'utf8');
    expect(written).toContain('"$${HOME}"');

    const ping = await runCli(['ping', '--server', 'inject', '--timeout', '20000'], { env, cwd: dirs.project });
    expect(ping.code).not.toBe(0); // the fake npx is no MCP server: it records and exits
    expect(existsSync(argv), ping.stderr).toBe(true);
    expect(JSON.parse(readFileSync(argv, 'utf8'))).toEqual([
      '-y',
      'inject-mcp@6.6.6',
      '; rm -rf ~',
      '$(touch $MARK)',
      '`touch $MARK`',
      '${HOME}',
      '--path',
      'a b ${MARK}',
    ]);
    expect(existsSync(mark)).toBe(false);
  });

  it('refuses an identifier that starts with "-" and writes nothing', async () => {
    const run = await runCli(
      ['registry', 'add', 'io.example/inject', '--package', 'pypi', '--registry', registry.url, '--yes'],
      { env: { HOME: dirs.home }, cwd: dirs.project },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('packages[1].identifier "--eval=');
    expect(run.stderr).toContain('starts with "-"');
    expect(existsSync(path.join(dirs.home, '.mcpwire', 'config.json'))).toBe(false);
  });

  it('refuses to write a publisher ${VAR} to a host that would expand it', async () => {
    const run = await runCli(
      ['registry', 'add', 'io.example/inject', '--to', 'cursor', '--registry', registry.url, '--yes'],
      { env: { HOME: dirs.home }, cwd: dirs.project },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('would be expanded as a variable there');
    expect(existsSync(path.join(dirs.home, '.cursor', 'mcp.json'))).toBe(false);
  });
});
