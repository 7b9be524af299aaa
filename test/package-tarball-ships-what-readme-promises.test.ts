/**
 * What `npm pack` puts in the tarball: the built `dist/` (built by `prepack` even on a fresh
 * clone that never ran `npm run build`), the LICENSE the package.json names, the README, and
 * every file a shipped Markdown file links to, so links work when read from the installed package.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, ROOT } from './support/cli.js';

const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The paths `npm pack --dry-run --json` would put in the tarball of the package in `dir`. */
async function packedFiles(dir: string, extra: string[], timeoutMs: number): Promise<string[]> {
  const { stdout } = await run(NPM, ['pack', '--dry-run', '--json', ...extra], {
    cwd: dir,
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
  });
  // Lifecycle scripts may print before the JSON document; it is the last thing on stdout.
  const json = stdout.slice(stdout.indexOf('[\n'));
  const [pack] = JSON.parse(json) as Array<{ files: Array<{ path: string }> }>;
  return pack!.files.map((f) => f.path);
}

/** Relative link targets of a Markdown text (without their `#fragment`). */
function relativeLinks(markdown: string): string[] {
  const targets = [...markdown.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#')).map((t) => t.split('#')[0]!);
}

/** Images a Markdown page shows: kept out of the tarball on purpose. */
const SCREENSHOT = /\.(png|jpe?g|gif|svg)$/;

describe('npm pack', () => {
  beforeAll(() => requireBuiltCli());

  it('ships dist, the MIT LICENSE, the README and every file a shipped Markdown file links to', async () => {
    const files = await packedFiles(ROOT, ['--ignore-scripts'], 60_000);
    for (const required of [
      'package.json',
      'README.md',
      'LICENSE',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/types.js',
      'dist/types.d.ts',
      'dist/cli.js',
      'dist/transport/http/index.js',
      'dist/inspect/proxy/index.js',
    ]) {
      expect(files, required).toContain(required);
    }
    const license = readFileSync(path.join(ROOT, 'LICENSE'), 'utf8');
    expect(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).license).toBe('MIT');
    expect(license).toMatch(/^MIT License/);
    expect(license).toContain('Copyright (c) 2026 the mcpwire authors');

    const markdown = files.filter((f) => f.endsWith('.md'));
    const broken: string[] = [];
    for (const file of markdown) {
      for (const link of relativeLinks(readFileSync(path.join(ROOT, file), 'utf8'))) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), link));
        // Screenshots stay in the repository (the tarball ships none: nothing a user runs needs them).
        if (SCREENSHOT.test(target)) expect(files, target).not.toContain(target);
        else if (!files.includes(target)) broken.push(`${file} → ${link}`);
      }
    }
    expect(broken, 'links to files the tarball does not ship').toEqual([]);
  });

  describe('on a fresh clone (no dist/)', () => {
    let copy: string | undefined;
    afterEach(() => {
      if (copy) rmSync(copy, { recursive: true, force: true });
      copy = undefined;
    });

    it('builds dist/ before packing (prepack)', async () => {
      copy = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-fresh-clone-'));
      const { stdout } = await run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
        cwd: ROOT,
        maxBuffer: 16 * 1024 * 1024,
      });
      for (const file of stdout.split('\0')) {
        if (file === '' || file === 'node_modules' || file.startsWith('dist/') || !existsSync(path.join(ROOT, file)))
          continue;
        cpSync(path.join(ROOT, file), path.join(copy, file), { recursive: true });
      }
      symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
      expect(existsSync(path.join(copy, 'dist'))).toBe(false);

      const files = await packedFiles(copy, [], 170_000);
      expect(files).toContain('dist/index.js');
      expect(files).toContain('dist/cli.js');
      expect(files).toContain('dist/index.d.ts');
    }, 180_000);
  });
});
