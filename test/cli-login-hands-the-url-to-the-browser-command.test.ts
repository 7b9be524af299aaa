/**
 * How `mcpwire` hands an authorization URL to a browser: `$BROWSER` run without a shell (the URL
 * in place of its `%s`, else appended; the first of a `:`-separated list), and a missing opener
 * is no error, since the URL is also printed.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../src/cli/io.js';
import { openBrowser } from '../src/cli/login.js';
import { eventually } from './support/wait.js';
import { useTempDir } from './support/temp-dir.js';

const tmp = useTempDir('mcpwire-browser-');

function io(env: Record<string, string>): CliIO {
  return {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    env: { PATH: process.env.PATH, ...env },
    cwd: tmp.dir,
    interactive: false,
    color: false,
    columns: 80,
  };
}

/** A browser command that writes its arguments, one a line, to `file` (whole, by a rename). */
function recorder(file: string): string {
  const script = path.join(tmp.dir, 'browser.sh');
  writeFileSync(
    script,
    `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > '${file}.tmp' && mv '${file}.tmp' '${file}'\n`,
  );
  chmodSync(script, 0o755);
  return script;
}

const read = (file: string) =>
  eventually(() => (existsSync(file) ? readFileSync(file, 'utf8') : undefined), { what: 'the browser command to run' });
const URL_WITH_QUERY = new URL(
  'http://127.0.0.1:9/authorize?client_id=a&state=b c&redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fcallback',
);

describe('the browser command', () => {
  it('gets the URL as its last argument, untouched by any shell', async () => {
    const file = path.join(tmp.dir, 'args');
    openBrowser(io({ BROWSER: recorder(file) }), URL_WITH_QUERY);
    expect(await read(file)).toBe(`${URL_WITH_QUERY.toString()}\n`);
  });

  it('gets the URL in place of %s, and only the first of a list runs', async () => {
    const file = path.join(tmp.dir, 'args');
    openBrowser(io({ BROWSER: `${recorder(file)} --new-window --url=%s:/no/such/second-browser` }), URL_WITH_QUERY);
    expect(await read(file)).toBe(`--new-window\n--url=${URL_WITH_QUERY.toString()}\n`);
  });

  it('a browser command that does not exist is no error', async () => {
    expect(() => openBrowser(io({ BROWSER: path.join(tmp.dir, 'no-such-browser') }), URL_WITH_QUERY)).not.toThrow();
    // The spawn failure arrives as an event; a listener-less 'error' would fail the run as uncaught.
    await new Promise((resolve) => setImmediate(resolve));
  });
});
