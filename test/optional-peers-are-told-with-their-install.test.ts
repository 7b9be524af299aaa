/**
 * The optional peers the CLI loads on first use: src/util/optional-peers.ts names each with
 * package.json's range (optional, and a devDependency so the tests have it), no runtime
 * dependency is one, and only the package's own absence becomes `DEPENDENCY_MISSING` naming the
 * install (exit 2 in the CLI); a missing file or dependency inside it stays the error it was.
 * The packed install without them: packed-install-is-lean.test.ts.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '../src/cli/exit-codes.js';
import { isMcpError } from '../src/protocol/errors.js';
import { importOptionalPeer, MissingDependencyError, requireOptionalPeer } from '../src/protocol/missing-dependency.js';
import { installCommand, OPTIONAL_PEERS, type OptionalPeer } from '../src/util/optional-peers.js';
import { ROOT } from './support/cli.js';

const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
const PEERS = Object.keys(OPTIONAL_PEERS) as OptionalPeer[];
const load = createRequire(import.meta.url);

describe('the optional peers', () => {
  it.each(PEERS)('%s: the range of package.json, optional, a devDependency, not a dependency', (name) => {
    expect(manifest.peerDependencies[name]).toBe(OPTIONAL_PEERS[name].range);
    expect(manifest.peerDependenciesMeta[name]).toEqual({ optional: true });
    expect(manifest.devDependencies[name]).toBe(OPTIONAL_PEERS[name].range);
    expect(manifest.dependencies).not.toHaveProperty(name);
  });

  it('install commands name the package at its range', () => {
    expect(installCommand('json-schema-to-typescript')).toBe('npm install json-schema-to-typescript@16.0.0');
    expect(installCommand('diff')).toBe(`npm install diff@${manifest.peerDependencies.diff}`);
  });
});

describe('loading an optional peer', () => {
  it('gives the module when it is there', async () => {
    expect(typeof requireOptionalPeer('diff', () => load('diff') as { diffLines: unknown }).diffLines).toBe('function');
    const generator = await importOptionalPeer('json-schema-to-typescript', () => import('json-schema-to-typescript'));
    expect(typeof generator.compile).toBe('function');
  });

  it("the package's absence (require or import) is DEPENDENCY_MISSING naming the install, exit 2", async () => {
    // The loader only sees the error; a package that is not there gives the same one.
    const absent = 'mcpwire-test-no-such-package';
    const required = thrown(() =>
      requireOptionalPeer('diff', () => {
        try {
          return load(absent);
        } catch (error) {
          throw renamed(error, absent, 'diff');
        }
      }),
    );
    const imported = await importOptionalPeer('json-schema-to-typescript', () =>
      import(absent).catch((error: unknown) => {
        throw renamed(error, absent, 'json-schema-to-typescript');
      }),
    ).catch((error: unknown) => error);
    for (const [error, name] of [
      [required, 'diff'],
      [imported, 'json-schema-to-typescript'],
    ] as const) {
      expect(error).toBeInstanceOf(MissingDependencyError);
      expect(isMcpError(error, 'DEPENDENCY_MISSING')).toBe(true);
      const missing = error as MissingDependencyError;
      expect(missing).toMatchObject({
        dependency: name,
        range: OPTIONAL_PEERS[name].range,
        install: installCommand(name),
      });
      expect(missing.message).toContain(`run ${installCommand(name)}`);
      expect(missing.message).toContain(OPTIONAL_PEERS[name].neededBy);
      expect(missing.toJSON()).toMatchObject({ code: 'DEPENDENCY_MISSING', install: installCommand(name) });
      expect(exitCodeOf(missing)).toBe(2);
    }
  });

  it('a missing file or dependency inside the package is not its absence: thrown as it was', async () => {
    const inside = thrown(() => requireOptionalPeer('diff', () => load('diff/no-such-file.js')));
    expect(inside).not.toBeInstanceOf(MissingDependencyError);
    expect((inside as { code?: string }).code).toMatch(/MODULE_NOT_FOUND|ERR_PACKAGE_PATH_NOT_EXPORTED/);
    // As when the generator is there and Prettier, its dependency, is not: the error names Prettier.
    const gone = 'mcpwire-test-prettier-gone';
    const nested = await importOptionalPeer('json-schema-to-typescript', () => import(gone)).catch(
      (error: unknown) => error,
    );
    expect(nested).not.toBeInstanceOf(MissingDependencyError);
    expect((nested as { code?: string }).code).toBe('ERR_MODULE_NOT_FOUND');
    const broken = new Error('boom');
    expect(() =>
      requireOptionalPeer('diff', () => {
        throw broken;
      }),
    ).toThrow(broken);
  });
});

/** What `run()` throws. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

/** `error` (Node's module-not-found error) as if it had named package `to` instead of `from`. */
function renamed(error: unknown, from: string, to: string): unknown {
  const e = error as Error & { code?: string };
  return Object.assign(new Error(e.message.replaceAll(from, to)), { code: e.code });
}
