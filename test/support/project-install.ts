/**
 * A project that has mcpwire as a dependency and no global one, laid out as `npm install` lays
 * it out: `node_modules/mcpwire` (this package, built), `node_modules/.bin/mcpwire` (its
 * `dist/cli.js`), a `package.json` naming it, and on request the reference servers
 * (`@modelcontextprotocol/server-everything`, …) with their bins, resolvable offline. The
 * home's `.npmrc` closes npm's registry (offline, an unreachable registry), so `npx` runs what the
 * project has or fails; `env` says the same to npm through the environment.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './cli.js';

/** The environment that keeps npm offline (besides the home's `.npmrc`). */
export const OFFLINE_NPM_ENV = {
  npm_config_offline: 'true',
  npm_config_registry: 'http://127.0.0.1:9/',
  NO_UPDATE_NOTIFIER: '1',
} as const;

/**
 * Installs mcpwire (and `servers`, package names from this repository's `node_modules`) into
 * `project`, and writes `home`'s `.npmrc`. Both directories exist already.
 */
export function installInProject(project: string, home: string, servers: readonly string[] = []): void {
  const modules = path.join(project, 'node_modules');
  mkdirSync(path.join(modules, '.bin'), { recursive: true });
  symlinkSync(ROOT, path.join(modules, 'mcpwire'), 'dir');
  symlinkSync('../mcpwire/dist/cli.js', path.join(modules, '.bin/mcpwire'));
  const devDependencies: Record<string, string> = { mcpwire: '*' };
  for (const name of servers) {
    const source = path.join(ROOT, 'node_modules', name);
    mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
    symlinkSync(source, path.join(modules, name), 'dir');
    const manifest = (
      JSON.parse(readFileSync(path.join(source, 'package.json'), 'utf8')) as { bin?: Record<string, string> }
    ).bin;
    for (const [bin, file] of Object.entries(manifest ?? {}))
      symlinkSync(
        path.relative(path.join(modules, '.bin'), path.join(modules, name, file)),
        path.join(modules, '.bin', bin),
      );
    devDependencies[name] = '*';
  }
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'uses-mcpwire', private: true, devDependencies }),
  );
  writeFileSync(path.join(home, '.npmrc'), 'offline=true\nregistry=http://127.0.0.1:9/\nupdate-notifier=false\n');
}
