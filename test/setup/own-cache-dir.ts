/**
 * Suite-wide: each test file's processes get an XDG cache directory of its own, removed after
 * the file, so the CLI's completion cache (the tools, prompts and resources it listed) is never
 * written to the real home's `~/.cache`. A test that gives a child its own `XDG_CACHE_HOME` wins.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-test-cache-'));
const before = process.env.XDG_CACHE_HOME;
process.env.XDG_CACHE_HOME = dir;

afterAll(() => {
  if (before === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = before;
  rmSync(dir, { recursive: true, force: true });
});
