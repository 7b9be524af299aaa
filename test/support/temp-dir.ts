/**
 * A scratch directory per test: made fresh before each test, removed (with all in it) after it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** The current test's directory (read it inside a test or hook, not at module load). */
export interface TempDir {
  readonly dir: string;
}

/**
 * Registers a `beforeEach` that makes `<os temp>/<prefix>XXXXXX` and an `afterEach` that removes
 * it. Hooks the caller registers after this call run after it is made and before it is removed.
 */
export function useTempDir(prefix: string): TempDir {
  let current: string | undefined;
  beforeEach(() => {
    current = mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterEach(() => {
    if (current) rmSync(current, { recursive: true, force: true });
    current = undefined;
  });
  return {
    get dir() {
      if (!current) throw new Error('the temp dir is made per test: read it inside a test or hook');
      return current;
    },
  };
}
