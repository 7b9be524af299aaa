/**
 * The editors' libraries that are optional peer dependencies of mcpwire (`diff`,
 * `@decimalturn/toml-patch`), loaded on first use with Node's `require` so the editors stay
 * synchronous. Each getter throws `DEPENDENCY_MISSING` (`MissingDependencyError`, naming the
 * `npm install` to run) when its library is not installed, and tries again on the next call.
 */
import { createRequire } from 'node:module';
import { requireOptionalPeer } from '../../../protocol/missing-dependency.js';

type Diff = typeof import('diff');
type TomlPatch = typeof import('@decimalturn/toml-patch');

const load = createRequire(import.meta.url);
let diff: Diff | undefined;
let tomlPatch: TomlPatch | undefined;

/** `diff` (line diffs, unified patches). */
export function diffLibrary(): Diff {
  return (diff ??= requireOptionalPeer('diff', () => load('diff') as Diff));
}

/** `@decimalturn/toml-patch` (the TOML parser with positions, and its `stringify`). */
export function tomlPatchLibrary(): TomlPatch {
  return (tomlPatch ??= requireOptionalPeer(
    '@decimalturn/toml-patch',
    () => load('@decimalturn/toml-patch') as TomlPatch,
  ));
}
