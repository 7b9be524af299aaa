#!/usr/bin/env node
// `npm pack` (prepack, after the build): dist/ without source maps. The maps point into src/,
// which the package does not ship, so a user has no use for them; package.json's `files` leaves
// out `*.map` already, and this takes the `//# sourceMappingURL=` line off each built file too, so
// no published file names a map that is not there (a bundler's source-map loader warns on one).
// `npm run build` writes them again. Usage: node scripts/strip-source-maps.mjs [DIR] (default dist/).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.resolve(process.argv[2] ?? path.join(root, 'dist'));
const MAP_COMMENT = /(^|\n)\/\/# sourceMappingURL=[^\n]*\n?$/;

let maps = 0;
let comments = 0;
for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const file = path.join(entry.parentPath, entry.name);
  if (entry.name.endsWith('.map')) {
    rmSync(file);
    maps++;
  } else if (/\.(c|m)?js$/.test(entry.name)) {
    const text = readFileSync(file, 'utf8');
    const stripped = text.replace(MAP_COMMENT, (_, start) => start);
    if (stripped !== text) {
      writeFileSync(file, stripped);
      comments++;
    }
  }
}
console.log(`strip-source-maps: ${path.relative(root, dir) || '.'}: ${maps} maps removed, ${comments} files unlinked`);
