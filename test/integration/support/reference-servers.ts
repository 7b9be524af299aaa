/**
 * The reference servers installed from npm as devDependencies, spawned with this very node and
 * the package's own bin script (never npx, never the network).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { StdioServerSpec } from '../../../src/transport/stdio/stdio.js';

const require = createRequire(import.meta.url);

/** The installed directory of an npm package (resolved through its package.json). */
export function packageDir(pkg: string): string {
  return path.dirname(require.resolve(`${pkg}/package.json`));
}

/** The bin script a package declares (its only one, or the one named `name`). */
export function binScript(pkg: string, name?: string): string {
  const manifest = require(`${pkg}/package.json`) as { bin?: string | Record<string, string> };
  const bin =
    typeof manifest.bin === 'string'
      ? manifest.bin
      : name
        ? manifest.bin?.[name]
        : Object.values(manifest.bin ?? {})[0];
  if (!bin) throw new Error(`${pkg} declares no bin script`);
  return path.join(packageDir(pkg), bin);
}

/** `@modelcontextprotocol/server-everything` over stdio; `env` is added to the safe allowlist. */
export const everything = (env?: Record<string, string>): StdioServerSpec => ({
  command: process.execPath,
  args: [binScript('@modelcontextprotocol/server-everything'), 'stdio'],
  ...(env ? { env } : {}),
});

/** `@modelcontextprotocol/server-filesystem` allowed to touch `dirs` (may be none: roots only). */
export const filesystem = (...dirs: string[]): StdioServerSpec => ({
  command: process.execPath,
  args: [binScript('@modelcontextprotocol/server-filesystem'), ...dirs],
});

/** `@modelcontextprotocol/server-memory` keeping its graph in `file` (through `MEMORY_FILE_PATH`). */
export const memory = (file: string): StdioServerSpec => ({
  command: process.execPath,
  args: [binScript('@modelcontextprotocol/server-memory')],
  env: { MEMORY_FILE_PATH: file },
});

/** The text blocks of a tool result (or prompt message list), joined by newlines. */
export function textOf(result: { content: ReadonlyArray<{ type: string; text?: string }> }): string {
  return result.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('\n');
}
