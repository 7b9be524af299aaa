/**
 * The built package as an installed dependency, without `npm install`: a temp folder whose
 * `node_modules/mcpwire` is a copy of `package.json` and `dist/` (a copy, not a link, so nothing
 * under it reaches this repo's `node_modules`, `@types/node` included), beside a link to each of
 * the package's `dependencies` (what `npm install mcpwire` would put there). The caller removes it
 * (`remove()`, in an `afterAll` or `onTestFinished`).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './cli.js';

/** Throws a clear error when the package was not built (`npm test` builds it first). */
export function requireBuiltPackage(): void {
  for (const entry of ['dist/index.js', 'dist/neutral.js', 'dist/neutral.d.ts'])
    if (!existsSync(path.join(ROOT, entry)))
      throw new Error(`${path.join(ROOT, entry)} is missing: run "npm run build" (npm test does it)`);
}

/** The folder of {@link installedCopy}. */
export interface InstalledCopy {
  readonly dir: string;
  /** Removes the folder (links only: what they point to stays). */
  remove(): void;
}

/** Makes the folder (see the file comment), with `files` (relative path → text) written into it. */
export function installedCopy(prefix: string, files: Record<string, string> = {}): InstalledCopy {
  requireBuiltPackage();
  const dir = mkdtempSync(path.join(os.tmpdir(), `mcpwire-${prefix}-`));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const own = path.join(dir, 'node_modules', 'mcpwire');
  mkdirSync(own, { recursive: true });
  cpSync(path.join(ROOT, 'package.json'), path.join(own, 'package.json'));
  cpSync(path.join(ROOT, 'dist'), path.join(own, 'dist'), { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const link = path.join(dir, 'node_modules', name);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules', name), link, 'dir');
  }
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return { dir, remove };
}
