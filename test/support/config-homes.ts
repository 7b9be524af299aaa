/**
 * Homes of a test file's own, each with a user config holding the servers it is given: one
 * temporary root made before the file's tests (after checking the CLI is built) and removed after.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { requireBuiltCli } from './cli.js';

export interface ConfigHomes {
  /** A new home whose `~/.mcpwire/config.json` holds `servers`: its `HOME` and `XDG_CONFIG_HOME`. */
  homeWith: (servers: Record<string, unknown>) => Record<string, string>;
  /** The temporary root (for the file's other scratch directories). */
  readonly root: string;
}

/** Registers the root's hooks (`beforeAll`, `afterAll`). */
export function configHomes(prefix: string): ConfigHomes {
  let root: string | undefined;
  beforeAll(() => {
    requireBuiltCli();
    root = mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });
  const made = (): string => {
    if (!root) throw new Error('config homes are made inside tests or hooks');
    return root;
  };
  return {
    get root() {
      return made();
    },
    homeWith: (servers) => {
      const home = mkdtempSync(path.join(made(), 'home-'));
      mkdirSync(path.join(home, '.mcpwire'));
      writeFileSync(path.join(home, '.mcpwire/config.json'), JSON.stringify({ mcpServers: servers }));
      return { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
    },
  };
}
