#!/usr/bin/env node
// `node bench/bundle-size.mjs [--platform browser|node] [--top N]` (after `npm run build`): the
// size of an HTTP client bundled for the browser, as an app's bundler would make it: esbuild,
// bundled, minified, ESM, tree-shaken; gzip at zlib's default level (6). Three entries doing the
// same thing (connect over Streamable HTTP, call a tool, close):
//   mcpwire   `import { McpClient } from 'mcpwire'`, resolved through package.json's "." export the
//             way a browser bundler resolves it (conditions browser, import, default: the neutral root
//             once it exists, whatever the node condition says), from dist/
//   sdk-v2    `Client` + `StreamableHTTPClientTransport` from `@modelcontextprotocol/client` (2.4)
//   sdk-v1    the same from `@modelcontextprotocol/sdk` (1.x)
// Each is measured twice: one file (every dynamic `import()` inlined: the whole cost) and split at
// `import()` as Vite, Rollup or `esbuild --splitting` emit it, counting what a page loads to
// connect and call (the entry chunk, the chunks it imports, and the chunks of the `import()`s the
// connect-and-call path takes, `CONNECT_PATH`; gzip per file, summed, as a page fetches them).
// A Node built-in no bundle can resolve for the browser is kept external and counted in the table's
// `node:* left` column (0 for a truly neutral bundle). `--platform node` makes Node bundles instead.
// Then the inputs of mcpwire's bundle by minified bytes: by room (dist/<folder>, node_modules/<package>)
// and the top files, so what to cut is visible. Writes bench/results/bundle-size.json.
import { builtinModules } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const platform = option('--platform', 'browser');
const top = Number(option('--top', '20'));
if (!['browser', 'node'].includes(platform) || !Number.isInteger(top)) {
  console.error('usage: node bench/bundle-size.mjs [--platform browser|node] [--top N]');
  process.exit(2);
}

/** The conditions a browser bundler matches for `import` (esbuild's for platform browser). */
const CONDITIONS = new Set(['browser', 'import', 'default']);

/** Node's export-target resolution over `CONDITIONS`: the first matching key, in object order. */
function target(value) {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (!CONDITIONS.has(key)) continue;
    const found = target(inner);
    if (found !== undefined) return found;
  }
  return undefined;
}

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const rootExport = target(pkg.exports?.['.'] ?? pkg.exports);
if (!rootExport) throw new Error('package.json has no "." export a browser bundler would take');
const MCPWIRE_ENTRY = path.join(ROOT, rootExport);

const ENTRIES = {
  mcpwire: `import { McpClient } from 'mcpwire';
export async function run(url) {
  const client = await McpClient.connect({ url });
  const result = await client.callTool('echo', { text: 'hi' });
  await client.close();
  return result;
}`,
  'sdk-v2': `import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
export async function run(url) {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
  await client.close();
  return result;
}`,
  'sdk-v1': `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export async function run(url) {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
  await client.close();
  return result;
}`,
};

/**
 * The `import()` targets (by the source or dist file they start at) that connecting over
 * Streamable HTTP without auth or tracing, calling a tool without an output schema and closing
 * take; every other lazy chunk (OAuth, the trace hook, the validator) loads only when used.
 */
const CONNECT_PATH = [/(^|\/)(src|dist)\/transport\/http\/index\.(ts|js)$/];

const BUILTINS = new Set(builtinModules);
const isBuiltin = (specifier) => specifier.startsWith('node:') || BUILTINS.has(specifier.split('/')[0]);

/** `mcpwire` → the export entry; on the browser platform, Node built-ins external and counted. */
function resolver(external, entry) {
  return {
    name: 'bundle-size',
    setup(bundle) {
      bundle.onResolve({ filter: /^mcpwire$/ }, () => ({ path: entry }));
      if (platform !== 'browser') return;
      bundle.onResolve({ filter: /^[a-z_:]+(\/|$)/ }, (args) => {
        if (!isBuiltin(args.path)) return undefined;
        external.add(args.path);
        return { path: args.path, external: true };
      });
    },
  };
}

/** The source entry a dist entry is built from (`./dist/neutral.js` → `src/neutral.ts`). */
const SOURCE_ENTRY = path.join(ROOT, rootExport.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));

const ENTRY_DIR = path.join(ROOT, 'bench/results/bundle-entries');
mkdirSync(ENTRY_DIR, { recursive: true });

/** One client's bundle, one file: every dynamic `import()` inlined, so its whole cost. */
async function measure(name, entry = MCPWIRE_ENTRY) {
  const file = path.join(ENTRY_DIR, `${name}.mjs`);
  writeFileSync(file, ENTRIES[name]);
  const external = new Set();
  const result = await build({
    entryPoints: [file],
    bundle: true,
    minify: true,
    format: 'esm',
    platform,
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [resolver(external, entry)],
  });
  const code = result.outputFiles[0].contents;
  return {
    name,
    minified: code.byteLength,
    gzipped: gzipSync(code).byteLength,
    nodeLeft: [...external].sort(),
    inputs: Object.values(result.metafile.outputs)[0].inputs,
    graph: result.metafile.inputs,
  };
}

/**
 * The same entry split at `import()`: the bytes a page loads to connect and call (minified, and
 * gzipped file by file) and every lazy chunk that stays unloaded, by the file it starts at.
 */
async function measureSplit(name, entry = MCPWIRE_ENTRY) {
  const file = path.join(ENTRY_DIR, `${name}.mjs`);
  const external = new Set();
  const result = await build({
    entryPoints: [file],
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    platform,
    target: 'es2022',
    outdir: path.join(ROOT, 'bench/results/bundle-split', name),
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [resolver(external, entry)],
  });
  const outputs = result.metafile.outputs;
  const bytes = new Map(result.outputFiles.map((out) => [path.relative(ROOT, out.path), out.contents]));
  const entryOut = Object.keys(outputs).find((out) => outputs[out].entryPoint?.endsWith(`${name}.mjs`));
  /** An output and the outputs it imports statically, transitively. */
  const closure = (start) => {
    const seen = new Set([start]);
    const todo = [start];
    while (todo.length > 0)
      for (const { path: next, kind } of outputs[todo.pop()].imports)
        if (kind === 'import-statement' && outputs[next] && !seen.has(next)) {
          seen.add(next);
          todo.push(next);
        }
    return seen;
  };
  const loaded = closure(entryOut);
  const lazy = [];
  for (const [out, { entryPoint }] of Object.entries(outputs)) {
    if (out === entryOut || !entryPoint || out.endsWith('.map')) continue;
    if (CONNECT_PATH.some((pattern) => pattern.test(entryPoint))) for (const next of closure(out)) loaded.add(next);
    else lazy.push({ startsAt: shortPath(entryPoint), chunk: out });
  }
  const sizeOf = (outs) => ({
    minified: [...outs].reduce((sum, out) => sum + bytes.get(out).byteLength, 0),
    gzipped: [...outs].reduce((sum, out) => sum + gzipSync(bytes.get(out)).byteLength, 0),
    files: outs.size,
  });
  return {
    ...sizeOf(loaded),
    lazy: lazy.map(({ startsAt, chunk }) => ({
      startsAt,
      // What loading it adds beyond what the connect path already loaded.
      ...sizeOf(new Set([...closure(chunk)].filter((out) => !loaded.has(out)))),
    })),
  };
}

/** The files `start` imports statically, transitively (itself included). */
function staticClosure(graph, start) {
  const seen = new Set([start]);
  const todo = [start];
  while (todo.length > 0)
    for (const { path: next, kind, external } of graph[todo.pop()]?.imports ?? [])
      if (kind !== 'dynamic-import' && !external && !seen.has(next)) {
        seen.add(next);
        todo.push(next);
      }
  return seen;
}

/** The room of a bundled file: `src/<folder>` for mcpwire's own, `node_modules/<package>` else. */
function roomOf(file) {
  const parts = file.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at !== -1) {
    const scoped = parts[at + 1]?.startsWith('@');
    return `node_modules/${parts.slice(at + 1, at + (scoped ? 3 : 2)).join('/')}`;
  }
  const src = parts.indexOf('src');
  if (src !== -1) return parts.length - src > 2 ? `src/${parts[src + 1]}/` : 'src/ (entries)';
  return file;
}

/** A bundled file's path from node_modules or from the repository. */
const shortPath = (file) => file.replace(/^.*?node_modules\//, 'node_modules/').replace(/^(\.\.\/)+/, '');

const kB = (bytes) => (bytes / 1000).toFixed(1);
const ratio = (a, b) => (a / b).toFixed(2);

const rows = [];
for (const name of Object.keys(ENTRIES)) rows.push({ ...(await measure(name)), split: await measureSplit(name) });
const ref = rows.find((row) => row.name === 'sdk-v2');

console.log(
  `## HTTP client bundle size (esbuild --platform=${platform}, minified, gzip -6; kB = 1000 bytes; mcpwire's entry: ${rootExport})\n`,
);
console.log(
  '| client | one file: minified kB | × sdk-v2 | gzipped kB | × sdk-v2 | split, connect + call: minified kB | × sdk-v2 | gzipped kB | × sdk-v2 | files | node:* left |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows)
  console.log(
    `| ${row.name} | ${kB(row.minified)} | ${ratio(row.minified, ref.minified)} | ${kB(row.gzipped)} | ${ratio(row.gzipped, ref.gzipped)} | ${kB(row.split.minified)} | ${ratio(row.split.minified, ref.minified)} | ${kB(row.split.gzipped)} | ${ratio(row.split.gzipped, ref.gzipped)} | ${row.split.files} | ${platform === 'browser' ? row.nodeLeft.length : 'n/a'} |`,
  );
console.log(
  `| target (half of sdk-v2's one file) | ${kB(ref.minified / 2)} | 0.50 | ${kB(ref.gzipped / 2)} | 0.50 | ${kB(ref.minified / 2)} | 0.50 | ${kB(ref.gzipped / 2)} | 0.50 | | ${platform === 'browser' ? 0 : 'n/a'} |`,
);
for (const row of rows) {
  if (row.split.lazy.length === 0) continue;
  console.log(`\n${row.name}, split: the chunks connect + call does not load (what each adds)\n`);
  console.log('| `import()` of | minified kB | gzipped kB | files |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const chunk of row.split.lazy.sort((a, b) => b.minified - a.minified))
    console.log(`| ${chunk.startsAt} | ${kB(chunk.minified)} | ${kB(chunk.gzipped)} | ${chunk.files} |`);
}
for (const row of rows)
  if (row.nodeLeft.length > 0) console.log(`\n${row.name} still imports (kept external): ${row.nodeLeft.join(', ')}`);

// The breakdown bundles the source entry the dist entry is built from, so inputs are source
// files rather than the build's shared chunks; its total is printed beside dist's.
const mine = await measure('mcpwire', SOURCE_ENTRY);
const rooms = new Map();
for (const [file, { bytesInOutput }] of Object.entries(mine.inputs)) {
  const room = roomOf(file);
  rooms.set(room, (rooms.get(room) ?? 0) + bytesInOutput);
}
console.log(
  `\n## What mcpwire's bundle holds (bundled from ${path.relative(ROOT, SOURCE_ENTRY)}: ${kB(mine.minified)} kB minified, minified bytes in output)\n`,
);
console.log('| room | kB | share |');
console.log('| --- | ---: | ---: |');
for (const [room, bytes] of [...rooms].sort((a, b) => b[1] - a[1]))
  console.log(`| ${room} | ${kB(bytes)} | ${((100 * bytes) / mine.minified).toFixed(1)}% |`);
console.log(`\n| top ${top} files | kB |`);
console.log('| --- | ---: |');
for (const [file, { bytesInOutput }] of Object.entries(mine.inputs)
  .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
  .slice(0, top))
  console.log(`| ${shortPath(file)} | ${kB(bytesInOutput)} |`);

// What a bundler that splits at `import()` (Vite, Rollup, esbuild --splitting) loads only when
// the code path runs: each dynamic import's static closure, in bytes of the one-file bundle.
const bytesOf = (files) => [...files].reduce((sum, file) => sum + (mine.inputs[file]?.bytesInOutput ?? 0), 0);
const entryFile = Object.keys(mine.graph).find((file) => file.endsWith('mcpwire.mjs'));
console.log(`\n| loaded by | kB (static closure) |`);
console.log('| --- | ---: |');
console.log(`| the entry, before any \`import()\` | ${kB(bytesOf(staticClosure(mine.graph, entryFile)))} |`);
const lazy = new Map();
for (const [file, { imports }] of Object.entries(mine.graph))
  for (const { path: next, kind } of imports)
    if (kind === 'dynamic-import' && mine.inputs[file]?.bytesInOutput) lazy.set(next, shortPath(file));
for (const [next, from] of [...lazy].sort(
  (a, b) => bytesOf(staticClosure(mine.graph, b[0])) - bytesOf(staticClosure(mine.graph, a[0])),
))
  console.log(`| \`import('${shortPath(next)}')\` in ${from} | ${kB(bytesOf(staticClosure(mine.graph, next)))} |`);

mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(
  path.join(ROOT, 'bench/results/bundle-size.json'),
  JSON.stringify(
    {
      platform,
      mcpwireEntry: rootExport,
      breakdownEntry: path.relative(ROOT, SOURCE_ENTRY),
      breakdown: Object.fromEntries(
        Object.entries(mine.inputs).map(([file, { bytesInOutput }]) => [file, bytesInOutput]),
      ),
      rows: rows.map((row) => ({
        name: row.name,
        minified: row.minified,
        gzipped: row.gzipped,
        split: row.split,
        nodeLeft: row.nodeLeft,
        inputs: Object.fromEntries(
          Object.entries(row.inputs).map(([file, { bytesInOutput }]) => [file, bytesInOutput]),
        ),
      })),
    },
    null,
    1,
  ),
);
