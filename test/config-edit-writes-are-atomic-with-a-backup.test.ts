/**
 * writeFileAtomic: the new bytes replace the file by a rename in its directory, keeping its mode
 * and the old bytes in FILE.bak; a link is written through; a file changed since it was read is
 * not written.
 */
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../src/manager/config/edit/atomic-write.js';
import { ConfigError } from '../src/protocol/errors.js';
import { useTempDir } from './support/temp-dir.js';

const tmp = useTempDir('mcpwire-atomic-');

describe('writeFileAtomic', () => {
  it('replaces the bytes, keeps the mode, and keeps the old bytes in FILE.bak', async () => {
    const file = path.join(tmp.dir, 'config.json');
    writeFileSync(file, 'old\n', { mode: 0o644 });
    chmodSync(file, 0o644);
    const result = await writeFileAtomic(file, 'new\n', 'old\n');
    expect(result).toEqual({ file, created: false, backup: `${file}.bak` });
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe('old\n');
    expect(statSync(file).mode & 0o777).toBe(0o644);
    expect(statSync(`${file}.bak`).mode & 0o777).toBe(0o644);
    expect(readdirSync(tmp.dir).sort()).toEqual(['config.json', 'config.json.bak']);
  });

  it('creates a missing file and its directories, mode 0600, with no backup', async () => {
    const file = path.join(tmp.dir, 'a', 'b', 'config.toml');
    expect(await writeFileAtomic(file, 'x = 1\n', undefined)).toEqual({ file, created: true });
    expect(readFileSync(file, 'utf8')).toBe('x = 1\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(['config.toml']);
  });

  it('writes through a symbolic link, which stays a link', async () => {
    mkdirSync(path.join(tmp.dir, 'dotfiles'));
    const real = path.join(tmp.dir, 'dotfiles', 'mcp.json');
    writeFileSync(real, '{}');
    const link = path.join(tmp.dir, 'mcp.json');
    symlinkSync(real, link);
    const result = await writeFileAtomic(link, '{"a":1}', '{}');
    expect(result.file).toBe(real);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(link, 'utf8')).toBe('{"a":1}');
    expect(readFileSync(`${real}.bak`, 'utf8')).toBe('{}');
  });

  it('does not write a file that changed since it was read', async () => {
    const file = path.join(tmp.dir, 'config.json');
    writeFileSync(file, 'changed by the host\n');
    const error = await writeFileAtomic(file, 'ours\n', 'what we read\n').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(`${file}: the file changed while it was being edited`);
    expect(readFileSync(file, 'utf8')).toBe('changed by the host\n');
    expect(readdirSync(tmp.dir)).toEqual(['config.json']);
  });
});
