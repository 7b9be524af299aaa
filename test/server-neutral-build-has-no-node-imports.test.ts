/**
 * The runtime-neutral build of `mcpwire/server` loads where there is no Node: the built package
 * bundled as a Worker bundles it (esbuild `--platform=neutral --conditions=workerd,worker,browser`,
 * from the package's own `exports`) imports no `node:*` module and names neither Node's `Buffer`
 * nor `process.` — offenders are listed with the files that brought them in.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { build, stop, type Plugin } from 'esbuild';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';

// What a Worker imports.
const ENTRY = `export { McpServer, createFetchHandler } from 'mcpwire/server';`;

// esbuild's service process ends with the file.
afterAll(() => stop());

it('bundles mcpwire/server for a Worker with no node: import, no Buffer and no process', async () => {
  const neutral = path.join(ROOT, 'dist/server/neutral.js');
  if (!existsSync(neutral)) throw new Error(`${neutral} is missing: run "npm run build" (npm test does it)`);
  const nodeImports: string[] = [];
  const recordNode: Plugin = {
    name: 'record-node-imports',
    setup(on) {
      on.onResolve({ filter: /^node:|^(fs|path|crypto|module|os|util|stream|http|events)$/ }, (args) => {
        nodeImports.push(`${args.path} <- ${path.relative(ROOT, args.importer)}`);
        return { path: args.path, external: true };
      });
    },
  };
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    format: 'esm',
    metafile: true,
    write: false,
    logLevel: 'silent',
    plugins: [recordNode],
  });
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.some((input) => input.endsWith('dist/server/neutral.js'))).toBe(true);
  for (const [input, { imports }] of Object.entries(result.metafile.inputs))
    for (const imported of imports)
      if (imported.path.startsWith('node:')) nodeImports.push(`${imported.path} <- ${input}`);
  expect.soft([...new Set(nodeImports)], 'node: imports').toEqual([]);
  const text = result.outputFiles[0]!.text;
  const offenders = [...text.matchAll(/(?<![\w.$])(Buffer\b|process\.)/g)].map((match) =>
    text.slice(Math.max(0, match.index - 60), match.index + 40).replace(/\s+/g, ' '),
  );
  expect.soft(offenders, 'Buffer and process. in the bundle').toEqual([]);
});
