/**
 * The layer rules of STYLE.md §1 and ARCHITECTURE.md, checked over whatever src/ holds when the
 * test runs: imports only point down (util < protocol < transport < auth < client < manager < gateway < cli,
 * with server, llm and inspect beside client), src/util and src/protocol use no Node built-in,
 * src/util imports no other room, rooms inside a layer stay apart where the map says so
 * (transport/stdio and transport/http; the manager's rooms under its facade), nothing under src/
 * imports an MCP SDK package, and no file imports itself through others (no import circle).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

/**
 * Rank of each layer folder; a file may import only from its own rank or lower. Beside `client`
 * stand `server` (the server kit: server → transport → protocol), `llm` (adapters for model
 * providers: llm → protocol) and `inspect` (trace files, message rules, the proxies: inspect →
 * transport → protocol); `observe` (trace records, the tracing decorator, diagnostics channels)
 * stands at transport's rank; `otel` (the `mcpwire/otel` subpath: diagnostics channels → OpenTelemetry,
 * the only room that may load `@opentelemetry/*`); `auth` is the OAuth client, under `client`.
 * `codegen` (the code `mcpwire emit-ts` writes) stands beside them too and may import `client`, not the other way.
 * `util` is the shared room under everything: small pure helpers any layer may import, which import nothing of src/.
 * `gateway` (`mcpwire/gateway`) serves a manager's servers through the kit: above both, under the CLI.
 */
const LAYERS: Record<string, number> = {
  util: -1,
  protocol: 0,
  transport: 1,
  observe: 1,
  auth: 2,
  client: 3,
  server: 3,
  llm: 3,
  inspect: 3,
  otel: 3,
  codegen: 3,
  apps: 3,
  manager: 4,
  gateway: 5,
  cli: 6,
};
/**
 * Layers every runtime loads, so they import no Node built-in: the protocol, the helpers, tracing
 * (channels through `process.getBuiltinModule` where it exists) and `mcpwire/otel` (a browser page
 * instruments with the OpenTelemetry web SDK).
 */
const NO_NODE_LAYERS = new Set(['protocol', 'util', 'observe', 'otel', 'apps']);
/** Layers of equal rank that must still not import each other. */
const SIBLINGS_APART = [
  ['client', 'server'],
  ['client', 'llm'],
  ['client', 'inspect'],
  ['server', 'llm'],
  ['server', 'inspect'],
  ['llm', 'inspect'],
  ...['server', 'llm', 'inspect'].map((layer): [string, string] => ['codegen', layer]),
  ...['client', 'server', 'llm', 'inspect', 'auth', 'codegen'].map((layer): [string, string] => ['otel', layer]),
  ...['client', 'server', 'llm', 'inspect', 'otel', 'codegen'].map((layer): [string, string] => ['apps', layer]),
];
/** Imports the ranks would allow but the map forbids: the manager runs servers, it does not inspect traffic. */
const FORBIDDEN: Array<[from: string, to: string]> = [
  ['manager', 'inspect'],
  ['server', 'auth'],
  ['client', 'codegen'],
  // `mcpwire/apps` is browser code over a structural client: protocol and util only.
  ['apps', 'transport'],
  ['apps', 'observe'],
  ['apps', 'auth'],
];
/**
 * Rooms inside a layer that must stay apart, as [importing path prefix, imported path prefix, why]
 * (paths relative to src/): the stdio and HTTP transports (a stdio client never loads undici, an
 * HTTP one never loads child_process), and the manager's rooms under its facade.
 */
const MANAGER_TOP = ['manager/mcp-manager.ts', 'manager/commands.ts', 'manager/workflow-step.ts'];
const ROOMS_APART: Array<[from: string, to: string, why: string]> = [
  ['transport/stdio/', 'transport/http/', 'the stdio and HTTP transports do not import each other'],
  ['transport/http/', 'transport/stdio/', 'the stdio and HTTP transports do not import each other'],
  ...['servers', 'catalogue', 'permissions', 'config', 'doctor'].flatMap((room) =>
    MANAGER_TOP.map((top): [string, string, string] => [
      `manager/${room}/`,
      top,
      `the manager's rooms sit under its facade (${top} imports them, not the other way)`,
    ]),
  ),
];
const ORDER =
  'util < protocol < transport < auth < client (beside it: server, llm, inspect, codegen) < manager < gateway < cli';

const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]!]));

/** Every module specifier a TypeScript source imports or re-exports, with its line. */
function importsOf(source: string): Array<{ specifier: string; line: number }> {
  const code = stripComments(source);
  const patterns = [
    /\bimport\s+(?:type\s+)?[^;'"]*?\s*from\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  const found: Array<{ specifier: string; line: number; at: number }> = [];
  for (const pattern of patterns) {
    for (const match of code.matchAll(pattern)) {
      const at = match.index ?? 0;
      found.push({ specifier: match[1]!, at, line: code.slice(0, at).split('\n').length });
    }
  }
  return found.sort((a, b) => a.at - b.at).map(({ specifier, line }) => ({ specifier, line }));
}

/**
 * Blanks comments (keeping newlines, so line numbers hold) so TSDoc examples are not read as
 * imports. String-aware: a glob such as '**\/*.json' in a string does not open a comment.
 */
function stripComments(source: string): string {
  let out = '';
  let quote: string | undefined;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (quote) {
      out += c;
      if (c === '\\') {
        out += source[i + 1] ?? '';
        i++;
      } else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      out += '\n';
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      out += source.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop - 1;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') quote = c;
    out += c;
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(c|m)?tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The layer folder of a path under src/, or undefined for files at src/ itself (the package surface). */
function layerOf(file: string): string | undefined {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts.length > 1 ? parts[0] : undefined;
}

function isNodeBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || NODE_BUILTINS.has(specifier) || NODE_BUILTINS.has(specifier.split('/')[0]!);
}

/** Every violation in one file, as `src/a/b.ts:12 imports '…': why`. */
function violationsIn(file: string, source: string): string[] {
  const rel = path.relative(path.dirname(SRC), file).split(path.sep).join('/');
  const from = layerOf(file);
  const problems: string[] = [];
  if (from !== undefined && !(from in LAYERS)) {
    problems.push(
      `${rel}: folder src/${from} is not a known layer (add it to LAYERS in test/boundaries-imports.test.ts and ARCHITECTURE.md)`,
    );
  }
  for (const { specifier, line } of importsOf(source)) {
    const where = `${rel}:${line} imports '${specifier}'`;
    if (specifier.startsWith('@modelcontextprotocol/'))
      problems.push(`${where}: nothing under src/ may import an MCP SDK package`);
    if (specifier.startsWith('@opentelemetry/') && from !== 'otel')
      problems.push(`${where}: only src/otel (the mcpwire/otel subpath) may load OpenTelemetry (an optional peer)`);
    if (/^pg(\/|$)/.test(specifier) && !rel.startsWith('src/server/postgres/'))
      problems.push(
        `${where}: only src/server/postgres (the mcpwire/server/postgres subpath) may load pg (an optional peer)`,
      );
    if (/^ioredis(\/|$)/.test(specifier) && !rel.startsWith('src/server/redis/'))
      problems.push(
        `${where}: only src/server/redis (the mcpwire/server/redis subpath) may load ioredis (an optional peer)`,
      );
    if (from !== undefined && NO_NODE_LAYERS.has(from) && isNodeBuiltin(specifier))
      problems.push(`${where}: src/${from} must not import Node built-ins`);
    if (!specifier.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), specifier);
    if (path.relative(SRC, target).startsWith('..')) {
      problems.push(`${where}: points outside src/`);
      continue;
    }
    const to = layerOf(target);
    if (from === undefined || to === undefined || from === to) {
      if (from !== undefined && to === undefined)
        problems.push(`${where}: a layer must not import the package surface at src/`);
      continue;
    }
    if (!(to in LAYERS) || !(from in LAYERS)) continue;
    if (LAYERS[to]! > LAYERS[from]!) problems.push(`${where}: upward import (${from} → ${to}); the order is ${ORDER}`);
    if (SIBLINGS_APART.some((pair) => pair.includes(from) && pair.includes(to)))
      problems.push(`${where}: ${from} and ${to} must not import each other`);
    if (FORBIDDEN.some(([a, b]) => a === from && b === to)) problems.push(`${where}: ${from} must not import ${to}`);
  }
  for (const { specifier, line } of importsOf(source)) {
    if (!specifier.startsWith('.')) continue;
    const relFrom = path.relative(SRC, file).split(path.sep).join('/');
    const relTo = path
      .relative(SRC, path.resolve(path.dirname(file), specifier))
      .split(path.sep)
      .join('/');
    const toTs = relTo.replace(/\.js$/, '.ts');
    for (const [a, b, why] of ROOMS_APART)
      if (relFrom.startsWith(a) && (toTs === b || toTs.startsWith(b)))
        problems.push(`${rel}:${line} imports '${specifier}': ${why}`);
  }
  return problems;
}

/**
 * The import circles among `files` (type-only imports count, as they do for madge): each a
 * strongly connected set of two or more files, as sorted paths relative to src/ joined by spaces.
 */
function importCircles(files: readonly string[], read: (file: string) => string): string[] {
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(read(file))
      .filter(({ specifier }) => specifier.startsWith('.'))
      .map(({ specifier }) => path.resolve(path.dirname(file), specifier).replace(/\.js$/, '.ts'))
      .filter((target) => known.has(target));
    edges.set(file, targets);
  }
  // Tarjan's strongly connected components, iterative so a deep chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[] = [];
  let next = 0;
  for (const root of files) {
    if (index.has(root)) continue;
    const work: Array<{ file: string; edge: number }> = [{ file: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const targets = edges.get(top.file)!;
      if (top.edge < targets.length) {
        const target = targets[top.edge++]!;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ file: target, edge: 0 });
        } else if (onStack.has(target)) low.set(top.file, Math.min(low.get(top.file)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(top.file)!));
      if (low.get(top.file) !== index.get(top.file)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(path.relative(SRC, member).split(path.sep).join('/'));
      } while (member !== top.file);
      if (component.length > 1) circles.push(component.sort().join(' '));
    }
  }
  return circles.sort();
}

describe('the import scanner', () => {
  it('finds static, type-only, side-effect, re-export and dynamic imports with their lines', () => {
    const source = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      'import {',
      '  c,',
      '} from "./c.js";',
      "import './side-effect.js';",
      "export { d } from './d.js';",
      "export * from './e.js';",
      "export * as f from './f.js';",
      "export type { G } from './g.js';",
      "const h = await import('./h.js');",
      "const i = require('node:fs');",
      "import * as j from 'node:path';",
      "import k, { l } from 'events';",
    ].join('\n');
    expect(importsOf(source)).toEqual([
      { specifier: './a.js', line: 1 },
      { specifier: '../b.js', line: 2 },
      { specifier: './c.js', line: 3 },
      { specifier: './side-effect.js', line: 6 },
      { specifier: './d.js', line: 7 },
      { specifier: './e.js', line: 8 },
      { specifier: './f.js', line: 9 },
      { specifier: './g.js', line: 10 },
      { specifier: './h.js', line: 11 },
      { specifier: 'node:fs', line: 12 },
      { specifier: 'node:path', line: 13 },
      { specifier: 'events', line: 14 },
    ]);
  });

  it('ignores imports inside comments, and strings that look like comments', () => {
    const source = [
      '/**',
      " * import { McpClient } from 'mcpwire';",
      ' */',
      "// import fs from 'node:fs';",
      "const text = 'nothing to import here';",
      "export const x = 1; // import y from 'z';",
      "const glob = '**/*.json'; import { real } from './real.js'; const url = 'https://example.com/*';",
      '/* a block */ export { w } from "./w.js";',
    ].join('\n');
    expect(importsOf(source)).toEqual([
      { specifier: './real.js', line: 7 },
      { specifier: './w.js', line: 8 },
    ]);
  });

  it('reports each kind of violation with the file and the import', () => {
    const at = (p: string) => path.join(SRC, p);
    expect(violationsIn(at('protocol/x.ts'), "import { readFile } from 'node:fs';")).toEqual([
      "src/protocol/x.ts:1 imports 'node:fs': src/protocol must not import Node built-ins",
    ]);
    expect(
      violationsIn(at('protocol/x.ts'), "import { EventEmitter } from 'events';\nimport 'fs/promises';"),
    ).toHaveLength(2);
    expect(violationsIn(at('transport/stdio/stdio.ts'), "import { spawn } from 'node:child_process';")).toEqual([]);
    expect(violationsIn(at('util/x.ts'), "import { createHash } from 'node:crypto';")).toEqual([
      "src/util/x.ts:1 imports 'node:crypto': src/util must not import Node built-ins",
    ]);
    expect(violationsIn(at('util/x.ts'), "import { McpError } from '../protocol/errors.js';")).toEqual([
      "src/util/x.ts:1 imports '../protocol/errors.js': upward import (util → protocol); the order is util < protocol < transport < auth < client (beside it: server, llm, inspect, codegen) < manager < gateway < cli",
    ]);
    expect(violationsIn(at('util/x.ts'), "import { y } from './y.js';")).toEqual([]);
    expect(violationsIn(at('transport/http/x.ts'), "import { s } from '../stdio/stdio.js';")).toEqual([
      "src/transport/http/x.ts:1 imports '../stdio/stdio.js': the stdio and HTTP transports do not import each other",
    ]);
    expect(violationsIn(at('manager/servers/x.ts'), "import { M } from '../mcp-manager.js';")).toEqual([
      "src/manager/servers/x.ts:1 imports '../mcp-manager.js': the manager's rooms sit under its facade (manager/mcp-manager.ts imports them, not the other way)",
    ]);
    expect(violationsIn(at('manager/commands.ts'), "import { M } from './mcp-manager.js';")).toEqual([]);
    expect(violationsIn(at('manager/catalogue/x.ts'), "import { g } from '../glob.js';")).toEqual([]);
    for (const file of ['protocol/x.ts', 'transport/x.ts', 'server/x.ts', 'inspect/x.ts', 'manager/servers/x.ts']) {
      const up = '../'.repeat(file.split('/').length - 1);
      expect(violationsIn(at(file), `import { redactUrl } from '${up}util/redact.js';`)).toEqual([]);
    }
    expect(
      violationsIn(at('client/x.ts'), "import { Client } from '@modelcontextprotocol/sdk/client/index.js';"),
    ).toEqual([
      "src/client/x.ts:1 imports '@modelcontextprotocol/sdk/client/index.js': nothing under src/ may import an MCP SDK package",
    ]);
    expect(violationsIn(at('transport/x.ts'), "import { McpClient } from '../client/mcp-client.js';")).toEqual([
      "src/transport/x.ts:1 imports '../client/mcp-client.js': upward import (transport → client); the order is util < protocol < transport < auth < client (beside it: server, llm, inspect, codegen) < manager < gateway < cli",
    ]);
    expect(violationsIn(at('protocol/x.ts'), "export type { T } from '../transport/y.js';")).toHaveLength(1);
    expect(violationsIn(at('client/x.ts'), "const m = await import('../manager/m.js');")).toHaveLength(1);
    expect(violationsIn(at('client/x.ts'), "import { S } from '../server/s.js';")).toEqual([
      "src/client/x.ts:1 imports '../server/s.js': client and server must not import each other",
    ]);
    expect(violationsIn(at('client/x.ts'), "import { VERSION } from '../index.js';")).toHaveLength(1);
    expect(violationsIn(at('llm/x.ts'), "import { McpClient } from '../client/mcp-client.js';")).toEqual([
      "src/llm/x.ts:1 imports '../client/mcp-client.js': llm and client must not import each other",
    ]);
    expect(violationsIn(at('manager/x.ts'), "import { readTrace } from '../inspect/trace/read-trace.js';")).toEqual([
      "src/manager/x.ts:1 imports '../inspect/trace/read-trace.js': manager must not import inspect",
    ]);
    expect(violationsIn(at('inspect/x.ts'), "import { McpManager } from '../manager/mcp-manager.js';")).toHaveLength(1);
    expect(
      violationsIn(
        at('cli/x.ts'),
        "import { readTrace } from '../inspect/trace/read-trace.js';\nimport { toOpenAITools } from '../llm/tool-export.js';",
      ),
    ).toEqual([]);
    expect(
      violationsIn(at('cli/x.ts'), "import { a } from '../manager/a.js';\nimport { b } from '../protocol/b.js';"),
    ).toEqual([]);
    expect(violationsIn(at('index.ts'), "export { McpClient } from './client/mcp-client.js';")).toEqual([]);
    expect(violationsIn(at('server/redis/x.ts'), "import { Redis } from 'ioredis';")).toEqual([]);
    expect(violationsIn(at('server/x.ts'), "import type { Redis } from 'ioredis';")).toEqual([
      "src/server/x.ts:1 imports 'ioredis': only src/server/redis (the mcpwire/server/redis subpath) may load ioredis (an optional peer)",
    ]);
    expect(violationsIn(at('utils/x.ts'), '')).toEqual([expect.stringContaining('src/utils is not a known layer')]);
  });
});

describe('the circle finder', () => {
  it('finds every file of a circle, type-only imports included, and nothing outside it', () => {
    const at = (p: string) => path.join(SRC, p);
    const sources: Record<string, string> = {
      [at('a/x.ts')]: "import { y } from './y.js';",
      [at('a/y.ts')]: "import type { Z } from '../b/z.js';",
      [at('b/z.ts')]: "import { x } from '../a/x.js';\nimport { w } from './w.js';",
      [at('b/w.ts')]: "import { v } from 'node:fs';",
    };
    expect(importCircles(Object.keys(sources), (file) => sources[file]!)).toEqual(['a/x.ts a/y.ts b/z.ts']);
    expect(importCircles([at('b/w.ts')], (file) => sources[file]!)).toEqual([]);
  });
});

describe('src/ keeps the layer rules', () => {
  const files = sourceFiles(SRC);

  it('has source files to check', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it('has no import circle', () => {
    const circles = importCircles(files, (file) => readFileSync(file, 'utf8'));
    expect(circles, `import circles:\n${circles.join('\n')}`).toEqual([]);
  });

  it('has no forbidden import', () => {
    const problems = files.flatMap((file) => violationsIn(file, readFileSync(file, 'utf8')));
    expect(problems, `layer violations:\n${problems.join('\n')}`).toEqual([]);
  });
});
