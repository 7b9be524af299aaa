/** Paths of the reference servers installed from npm, spawned with this node (never npx). */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { StdioServerSpec } from '../../../src/transport/stdio.js';

const require = createRequire(import.meta.url);
const dirOf = (pkg: string) => path.dirname(require.resolve(`${pkg}/package.json`));

export const everything = (): StdioServerSpec => ({ command: process.execPath, args: [path.join(dirOf('@modelcontextprotocol/server-everything'), 'dist', 'index.js'), 'stdio'] });
export const filesystem = (...dirs: string[]): StdioServerSpec => ({ command: process.execPath, args: [path.join(dirOf('@modelcontextprotocol/server-filesystem'), 'dist', 'index.js'), ...dirs] });
export const memory = (file: string): StdioServerSpec => ({
  command: process.execPath,
  args: [path.join(dirOf('@modelcontextprotocol/server-memory'), 'dist', 'index.js')],
  env: { MEMORY_FILE_PATH: file },
});
