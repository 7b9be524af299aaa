/**
 * Scratch directories for tests that read or write configuration: a user home and a project
 * directory under one temporary root, made fresh before each test and removed after it.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** The current test's directories (read them inside a test or hook, not at module load). */
export interface ConfigDirs {
  /** The temporary root; everything below it is removed after each test. */
  readonly root: string;
  /** `<root>/home`, the user's home (with `.mcpwire/` in it unless `userConfigDir: false`). */
  readonly home: string;
  /** `<root>/project`, an existing, empty project directory. */
  readonly project: string;
}

export interface ConfigDirsOptions {
  /** Make `<home>/.mcpwire/` (default true); false leaves `home` not yet made. */
  userConfigDir?: boolean;
}

/**
 * Registers a `beforeEach` that makes the directories (root named `<prefix>XXXXXX` in the OS
 * temp dir) and an `afterEach` that removes the root. Hooks the caller registers after this call
 * run after the directories exist (before each) and before they are removed (after each).
 */
export function useConfigDirs(prefix: string, options: ConfigDirsOptions = {}): ConfigDirs {
  let current: { root: string; home: string; project: string } | undefined;
  beforeEach(() => {
    const root = mkdtempSync(path.join(os.tmpdir(), prefix));
    current = { root, home: path.join(root, 'home'), project: path.join(root, 'project') };
    if (options.userConfigDir !== false) mkdirSync(path.join(current.home, '.mcpwire'), { recursive: true });
    mkdirSync(current.project, { recursive: true });
  });
  afterEach(() => {
    if (current) rmSync(current.root, { recursive: true, force: true });
    current = undefined;
  });
  const now = () => {
    if (!current) throw new Error('config dirs are made per test: read them inside a test or hook');
    return current;
  };
  return {
    get root() {
      return now().root;
    },
    get home() {
      return now().home;
    },
    get project() {
      return now().project;
    },
  };
}
