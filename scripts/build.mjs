#!/usr/bin/env node
// `npm run build`: dist/ from src/. Types come from tsc (declarations only, one .d.ts per
// source file); JavaScript comes from esbuild, one file per public entry (`mcpwire`: its Node
// entry `index.js` and its runtime-neutral one `neutral.js`; `mcpwire/types` — types only, so an
// empty module — `mcpwire/http`, `mcpwire/proxy`, `mcpwire/server` (its Node entry and its
// runtime-neutral one, `server/neutral.js`), `mcpwire/otel`, `mcpwire/apps` (browser code),
// the `mcpwire` command) plus shared chunks. Shared chunks keep one copy of every module across
// entries (one McpError class whichever entry threw it); bundling makes `import('mcpwire')` load
// ~10 files instead of ~60 (measured in bench/: the import scenario). Lazy imports stay lazy:
// the stdio spawner, undici, YAML, ajv and the trace hook become chunks of their own, loaded on
// first use. Source maps point back into src/.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');

rmSync(dist, { recursive: true, force: true });

const tsc = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules/typescript/bin/tsc'),
    '-p',
    path.join(root, 'tsconfig.build.json'),
    '--emitDeclarationOnly',
  ],
  { stdio: 'inherit' },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

/** What both passes share: ESM for Node, packages left to node_modules, linked source maps. */
const common = {
  absWorkingDir: root,
  outbase: 'src',
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
};

// The library's entries share their chunks (one copy of every module across them).
await build({
  ...common,
  entryPoints: [
    'src/index.ts',
    'src/neutral.ts',
    'src/types.ts',
    'src/transport/http/index.ts',
    'src/transport/http/node.ts',
    'src/inspect/proxy/index.ts',
    'src/auth/index.ts',
    'src/auth/neutral.ts',
    'src/server/index.ts',
    'src/server/neutral.ts',
    'src/server/postgres/index.ts',
    'src/otel/index.ts',
    'src/server/redis/index.ts',
    'src/apps/index.ts',
    'src/gateway/index.ts',
  ],
  chunkNames: 'chunks/[name]-[hash]',
});

// The command is a process of its own (it loads no user module that could hand it one of the
// library's objects), so it is bundled apart: in one pass its ~50 lazy command chunks would cut
// the library's modules into as many shared chunks, and `import('mcpwire')` loaded 41 files for
// what 21 hold now (measured in bench/: each file costs the ESM loader ~0.25 ms, the chunks
// together ~40 % of the import time).
// `mcpwire app`'s host page runs in a browser: its script (AppHost and the relay client) is
// bundled for the browser into one file and handed to the command's chunk as a string constant,
// so the command serves it with no file to find at run time.
const page = await build({
  absWorkingDir: root,
  entryPoints: ['src/cli/app-preview/page-main.ts'],
  bundle: true,
  write: false,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  logLevel: 'warning',
});
await build({
  ...common,
  entryPoints: ['src/cli.ts'],
  chunkNames: 'chunks/cli/[name]-[hash]',
  define: { __MCPWIRE_APP_PAGE__: JSON.stringify(page.outputFiles[0].text) },
});
