#!/usr/bin/env node
// `node bench/install-size.mjs` (after `npm run build`): what `npm install` puts in an empty
// project for mcpwire (this repository packed: `npm pack --ignore-scripts` of dist/) and for the
// official SDK's client (`@modelcontextprotocol/client`, the version in node_modules, from the
// registry), each in a temp folder of its own, as a user's first install: npm's defaults (peers
// installed, optional peers not), `--prefer-offline`. Prints a markdown table: node_modules MB
// (the sum of the files' sizes, not disk blocks), packages (npm's lock entries, the package
// itself among them), the package's own files, and mcpwire ÷ SDK; then mcpwire's tarball.
// Options: --keep (leave the folders, print where), --sdk VERSION.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const keep = argv.includes('--keep');
const sdkAt = argv.indexOf('--sdk');
const sdkVersion =
  sdkAt >= 0
    ? argv[sdkAt + 1]
    : JSON.parse(readFileSync(path.join(root, 'node_modules/@modelcontextprotocol/client/package.json'), 'utf8'))
        .version;
const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const quiet = {
  ...process.env,
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
};

const work = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-install-size-'));
try {
  const packed = JSON.parse(
    execFileSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: root,
      env: quiet,
      encoding: 'utf8',
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
    }).replace(/^[^[]*/, ''),
  )[0];
  const mine = install(path.join(work, packed.filename), 'mcpwire', path.join(work, 'mcpwire'));
  const sdk = install(
    `@modelcontextprotocol/client@${sdkVersion}`,
    '@modelcontextprotocol/client',
    path.join(work, 'sdk'),
  );

  const mb = (bytes) => (bytes / 1e6).toFixed(2);
  const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
  const row = (name, r) => `| ${name} | ${mb(r.bytes)} | ${r.packages.length} | ${mb(r.own)} |`;
  console.log('| package | node_modules MB | packages | the package itself MB |');
  console.log('| --- | ---: | ---: | ---: |');
  console.log(row(`mcpwire ${version} (this build)`, mine));
  console.log(row(`@modelcontextprotocol/client ${sdkVersion}`, sdk));
  console.log(
    `| mcpwire ÷ SDK client | ${ratio(mine.bytes, sdk.bytes)} | ${ratio(mine.packages.length, sdk.packages.length)} | ${ratio(mine.own, sdk.own)} |`,
  );
  console.log(
    `\nmcpwire's tarball: ${(packed.size / 1e3).toFixed(0)} kB, ${mb(packed.unpackedSize)} MB unpacked, ${packed.entryCount} files`,
  );
  console.log(`mcpwire installs: ${mine.packages.join(', ')}`);
  console.log(`the SDK client installs: ${sdk.packages.join(', ')}`);
  if (keep) console.log(`\nkept: ${work}`);
} finally {
  if (!keep) rmSync(work, { recursive: true, force: true });
}

/**
 * `npm install spec` in a fresh `dir`: node_modules bytes, the bytes of package `name` itself
 * (its folder without a nested node_modules) and the packages npm's lock lists.
 */
function install(spec, name, dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'install-size', private: true })}\n`);
  execFileSync(npm, ['install', spec, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    env: quiet,
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 240_000,
  });
  const lock = JSON.parse(readFileSync(path.join(dir, 'package-lock.json'), 'utf8'));
  const packages = Object.keys(lock.packages)
    .filter((key) => key !== '')
    .map((key) => key.replace(/^.*node_modules\//, ''))
    .sort();
  const modules = path.join(dir, 'node_modules');
  return { bytes: treeBytes(modules), own: treeBytes(path.join(modules, name), true), packages };
}

/** The sum of the sizes of the files under `dir` (symlinks not followed), without nested node_modules if asked. */
function treeBytes(dir, withoutModules = false) {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!(withoutModules && entry.name === 'node_modules')) bytes += treeBytes(full, withoutModules);
    } else if (entry.isFile()) bytes += statSync(full).size;
  }
  return bytes;
}
