/**
 * An optional peer dependency that is not installed, said as an {@link McpError} that names the
 * package and the `npm install` to run; and the loaders that turn a failed import of that package
 * (and only of that package) into it. The loaders take the import as a function, so no literal
 * `import('…')` of a peer sits here for a bundler to follow.
 */
import { installCommand, OPTIONAL_PEERS, type OptionalPeer } from '../util/optional-peers.js';
import { McpError } from './errors.js';

/**
 * `DEPENDENCY_MISSING`: `dependency`, an optional peer of mcpwire, is not installed where mcpwire
 * can load it. The message names what needs it and the command that installs it, e.g.
 * `mcpwire emit-ts needs json-schema-to-typescript, an optional peer dependency of mcpwire that
 * is not installed: run npm install json-schema-to-typescript@16.0.0`.
 */
export class MissingDependencyError extends McpError {
  override readonly name: string = 'MissingDependencyError';
  declare readonly code: 'DEPENDENCY_MISSING';
  /** The package that is missing. */
  readonly dependency: OptionalPeer;
  /** The version range mcpwire wants (its package.json's `peerDependencies`). */
  readonly range: string;
  /** The command that installs it in that range: `npm install json-schema-to-typescript@16.0.0`. */
  readonly install: string;

  constructor(dependency: OptionalPeer, options: { cause?: unknown } = {}) {
    const install = installCommand(dependency);
    super(
      'DEPENDENCY_MISSING',
      `${OPTIONAL_PEERS[dependency].neededBy} needs ${dependency}, an optional peer dependency of mcpwire that ` +
        `is not installed: run ${install} (in the project that has mcpwire; without one: ` +
        `npx -p mcpwire -p ${dependency}@${OPTIONAL_PEERS[dependency].range} mcpwire …)`,
      options,
    );
    this.dependency = dependency;
    this.range = OPTIONAL_PEERS[dependency].range;
    this.install = install;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), dependency: this.dependency, range: this.range, install: this.install };
  }
}

/**
 * `load()` (a `require` of `name` or of a file in it), or {@link MissingDependencyError} when it
 * throws because `name` itself cannot be found. Any other failure (a file of `name` missing, a
 * dependency of `name` missing, an error while it loads) is thrown as it is.
 */
export function requireOptionalPeer<T>(name: OptionalPeer, load: () => T): T {
  try {
    return load();
  } catch (error) {
    throw isAbsence(error, name) ? new MissingDependencyError(name, { cause: error }) : error;
  }
}

/** {@link requireOptionalPeer} for an `import()`: resolves with the module or rejects alike. */
export async function importOptionalPeer<T>(name: OptionalPeer, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw isAbsence(error, name) ? new MissingDependencyError(name, { cause: error }) : error;
  }
}

/**
 * Whether `error` says package `name` cannot be found: Node's `ERR_MODULE_NOT_FOUND` (import)
 * or `MODULE_NOT_FOUND` (require) naming the package itself (`Cannot find package 'diff'`,
 * `Cannot find module 'diff'`), never one of its files or its own dependencies.
 */
function isAbsence(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const message = error instanceof Error ? error.message : '';
  return message.includes(`'${name}'`) || message.includes(`"${name}"`);
}
