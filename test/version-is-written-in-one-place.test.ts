import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseArgv } from '../src/cli/argv.js';
import type { CliIO } from '../src/cli/io.js';
import { main } from '../src/cli/main.js';
import { cliClientOptions } from '../src/cli/session.js';
import { VERSION } from '../src/util/version.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGE_VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

function io(): CliIO & { out(): string } {
  const stdout = new PassThrough();
  let text = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return {
    stdout,
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    env: {},
    cwd: ROOT,
    interactive: false,
    color: false,
    columns: 80,
    out: () => text,
  };
}

describe('the version', () => {
  it("is package.json's version", () => {
    expect(VERSION).toBe(PACKAGE_VERSION);
  });

  it('is written in src/util/version.ts only: no other source file holds the literal', () => {
    const copies = sourceFiles(path.join(ROOT, 'src'))
      .filter((file) => !file.endsWith(path.join('util', 'version.ts')))
      .filter((file) =>
        new RegExp(`['"\`]${PACKAGE_VERSION.replaceAll('.', '\\.')}['"\`]`).test(readFileSync(file, 'utf8')),
      )
      .map((file) => path.relative(ROOT, file));
    expect(copies).toEqual([]);
  });

  it('is what mcpwire --version prints, as text and in the --json envelope', async () => {
    const text = io();
    expect(await main(['--version'], text)).toEqual({ code: 0 });
    expect(text.out()).toBe(`mcpwire ${PACKAGE_VERSION}\n`);
    const json = io();
    await main(['--version', '--json'], json);
    expect(JSON.parse(json.out())).toMatchObject({ ok: true, result: { version: PACKAGE_VERSION } });
  });

  it('is the clientInfo.version the CLI connects with', () => {
    expect(cliClientOptions(parseArgv([]), io()).clientInfo).toEqual({ name: 'mcpwire-cli', version: PACKAGE_VERSION });
  });
});
