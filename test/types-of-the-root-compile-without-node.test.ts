/**
 * Types without Node: a TypeScript project for a browser or a Worker (`"types": []`, `lib`
 * es2022 + dom + esnext.disposable, `skipLibCheck: false`, `moduleResolution: bundler`, so the
 * package's `default` condition: `dist/neutral.d.ts`) imports the root of the built package,
 * installed beside its dependencies and without `@types/node`, and compiles. What still names
 * Node comes only from the rooms other branches are making neutral (WAITING_ON_MERGE).
 */
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedCopy, type InstalledCopy } from './support/installed-copy.js';

/**
 * TODO(merge http-fetch, oauth-browser): the declaration files that still import undici (the HTTP
 * transports' options, the OAuth options). The lead empties this list at the merge and flips the
 * `it.fails` below to `it`.
 */
const WAITING_ON_MERGE: string[] = [];

const TSCONFIG = {
  compilerOptions: {
    target: 'es2022',
    module: 'esnext',
    moduleResolution: 'bundler',
    types: [],
    lib: ['es2022', 'dom', 'esnext.disposable'],
    skipLibCheck: false,
    strict: true,
    noEmit: true,
    // The links to the dependencies stay where they are, so nothing resolves into this repo's node_modules.
    preserveSymlinks: true,
  },
  files: ['app.ts'],
};

// A browser app's use of the client: connect to a URL, list, call, handle errors, trace.
const APP = `
import { McpClient, McpError, traceTransport, createLinkedPair, type ClientOptions } from 'mcpwire';
import type { CallToolResult, Tool } from 'mcpwire/types';

const options: ClientOptions = { name: 'remote', connectTimeoutMs: 5_000 };
export async function tools(url: string, signal: AbortSignal): Promise<Tool['name'][]> {
  await using client = await McpClient.connect({ url }, { ...options, signal });
  try {
    const result: CallToolResult = await client.callTool('echo', { text: 'hi' });
    console.log(result.content);
    return (await client.listTools()).map((tool) => tool.name);
  } catch (error) {
    if (error instanceof McpError && error.code === 'UNSUPPORTED') return [];
    throw error;
  }
}
export const pair = createLinkedPair();
export const traced = traceTransport(pair[0], { server: 'memory', sink: (record) => console.log(record.kind) });
`;

interface Compiled {
  /** Each error as `file(line): message`, file relative to the project. */
  errors: Array<{ file: string; text: string }>;
  /** The project's files (relative) of mcpwire's own declarations. */
  own: Map<string, string>;
  /** Every file of the program (relative). */
  all: string[];
}

function compile(dir: string): Compiled {
  // Named as its file, so the type roots are the project's (else this process's cwd: this repo's @types/node).
  const parsed = ts.parseJsonConfigFileContent(TSCONFIG, ts.sys, dir, undefined, path.join(dir, 'tsconfig.json'));
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  const rel = (file: string) => path.relative(dir, file).replaceAll(path.sep, '/');
  const errors = ts.getPreEmitDiagnostics(program).map((d) => ({
    file: d.file ? rel(d.file.fileName) : '(options)',
    text: `${d.file ? rel(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
  }));
  const own = new Map<string, string>();
  for (const source of program.getSourceFiles())
    if (rel(source.fileName).startsWith('node_modules/mcpwire/'))
      own.set(rel(source.fileName).slice('node_modules/mcpwire/'.length), source.text);
  return { errors, own, all: program.getSourceFiles().map((source) => rel(source.fileName)) };
}

const waiting = (file: string) => WAITING_ON_MERGE.some((room) => file.startsWith(room));

describe('the root types without Node', () => {
  let project: InstalledCopy;
  let compiled: Compiled;
  // One compile for both checks (tens of seconds on a loaded machine).
  beforeAll(() => {
    project = installedCopy('types', { 'app.ts': APP, 'tsconfig.json': JSON.stringify(TSCONFIG) });
    compiled = compile(project.dir);
  }, 180_000);
  afterAll(() => project?.remove());

  it(
    'resolve to the neutral declarations, and name Node only in the rooms waiting on the merge',
    { timeout: 120_000 },
    () => {
      const { errors, own, all } = compiled;
      // The project is honest: Node's types are nowhere to be found, so nothing can lean on them.
      expect(all.filter((file) => file.includes('@types/node'))).toEqual([]);
      expect(own.has('dist/neutral.d.ts')).toBe(true);
      expect(own.has('dist/index.d.ts'), 'the node entry is not what a bundler project sees').toBe(false);
      // No declaration of mcpwire outside the waiting rooms imports Node, undici or names `NodeJS`.
      const naming = [...own]
        .filter(
          ([file, text]) =>
            !waiting(file) && /from ['"](node:|undici|proper-lockfile)|NodeJS\.|reference types="node"/.test(text),
        )
        .map(([file]) => file);
      expect(naming).toEqual([]);
      // Every error is in a waiting room, or in undici's declarations (which only those rooms import).
      const stray = errors.filter(
        (e) =>
          !(e.file.startsWith('node_modules/mcpwire/') && waiting(e.file.slice(21))) &&
          !e.file.startsWith('node_modules/undici/'),
      );
      expect(stray.map((e) => e.text)).toEqual([]);
    },
  );

  it('compile with no error at all', () => {
    expect(compiled.errors.map((e) => e.text)).toEqual([]);
  });
});
