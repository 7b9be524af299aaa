/**
 * Runs one marked documentation block in a scratch project (`packed-install.ts`) as the
 * convention says: a `file=PATH` block writes PATH; `sh` runs with `bash -e`, `js`/`mjs` with
 * `node`, `ts` is compiled by the repository's `tsc` under `--strict` (ES2022, so `await using`
 * is lowered for Node 20) and what it wrote is run. Every process is bounded and leads a process
 * group of its own, killed whole on overrun; a block that leaves a process behind (in its group,
 * or working in the project) fails, and what it left is killed. A failure throws an error naming
 * the document, the block's line, the command and what it printed.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './cli.js';
import type { ScratchProject } from './packed-install.js';
import type { Snippet } from './doc-snippets.js';
import { STRICT_NODE_PROJECT } from './typescript-project.js';
import { until, within } from './wait.js';

/** How long one block may run (and, separately, its type check). */
export const BLOCK_TIMEOUT_MS = 60_000;
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
/** What a failure shows of each stream: the end, where the error is. */
const SHOWN_CHARS = 6_000;

interface Ran {
  command: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  leftRunning: boolean;
  /** The command lines of what was left running in the project, if any. */
  left: string;
}

/** Writes or runs `snippet` of `doc` in `project`; rejects with what went wrong and what was printed. */
export async function runSnippet(project: ScratchProject, doc: string, snippet: Snippet): Promise<void> {
  const where = `${doc}:${snippet.line}`;
  if (snippet.kind === 'invalid') throw new Error(`${where}: \`\`\`${snippet.info}: ${snippet.reason}`);
  if (snippet.kind === 'file') {
    const target = path.join(project.dir, snippet.path);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, snippet.code);
    return;
  }
  const base = `snippet-${snippet.line}`;
  switch (snippet.lang) {
    case 'sh': {
      const file = path.join(project.work, `${base}.sh`);
      writeFileSync(file, snippet.code);
      check(where, snippet.code, await bounded('bash', ['-e', file], project));
      return;
    }
    case 'js':
    case 'mjs': {
      // In the project, so its relative imports (a file an earlier block wrote) resolve there.
      const file = path.join(project.dir, `${base}.${snippet.lang}`);
      writeFileSync(file, snippet.code);
      check(where, snippet.code, await bounded(process.execPath, [file], project));
      return;
    }
    case 'ts': {
      const file = path.join(project.dir, `${base}.ts`);
      writeFileSync(file, snippet.code);
      const tsconfig = path.join(project.work, `tsconfig-${snippet.line}.json`);
      writeFileSync(tsconfig, JSON.stringify(strictConfig(file), null, 2));
      check(where, snippet.code, await bounded(process.execPath, [TSC, '-p', tsconfig], project), 'tsc --strict');
      // tsc wrote `snippet-LINE.js` beside it: what a project that compiles with tsc runs.
      check(where, snippet.code, await bounded(process.execPath, ['--enable-source-maps', `${base}.js`], project));
      return;
    }
  }
}

/** `tsc --strict` as a new Node project has it: ES modules, NodeNext, Node's types; the output beside the file. */
function strictConfig(file: string): unknown {
  return {
    compilerOptions: {
      ...STRICT_NODE_PROJECT,
      noEmitOnError: true,
      inlineSourceMap: true,
    },
    files: [file],
  };
}

function check(where: string, code: string, ran: Ran, what = ran.command): void {
  const ok = ran.code === 0 && !ran.timedOut && !ran.leftRunning;
  if (ok) return;
  const how = ran.timedOut
    ? `did not finish within ${BLOCK_TIMEOUT_MS} ms (its process group was killed)`
    : ran.leftRunning
      ? `exited but left processes running (in its group, in the project or holding its output; now killed${ran.left ? `: ${ran.left}` : ''}): close what it opens`
      : `failed: ${ran.signal ? `signal ${ran.signal}` : `exit code ${ran.code}`}`;
  const tail = (text: string) => (text.length > SHOWN_CHARS ? `…${text.slice(-SHOWN_CHARS)}` : text);
  throw new Error(
    `${where}: ${what} ${how}\n--- the block ---\n${code}--- stdout ---\n${tail(ran.stdout)}\n--- stderr ---\n${tail(ran.stderr)}`,
  );
}

/** True while any process of group `pgid` exists. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Processes whose working directory is `dir` or below it (Linux; elsewhere none are found). */
function runningIn(dir: string): number[] {
  if (!existsSync('/proc/self/cwd')) return [];
  const root = realpathSync(dir);
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = readlinkSync(`/proc/${entry}/cwd`);
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.[0];
      if (state !== 'Z' && (cwd === root || cwd.startsWith(`${root}/`))) found.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '?';
  }
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Runs `file args` in the project as the leader of a new process group, bounded. */
async function bounded(file: string, args: string[], project: ScratchProject): Promise<Ran> {
  const command = [file, ...args].map((a) => (path.isAbsolute(a) ? path.basename(a) : a)).join(' ');
  const child = spawn(file, args, {
    cwd: project.dir,
    env: project.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid!);
  }, BLOCK_TIMEOUT_MS);
  const exited = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve({ code, signal }));
  }).finally(() => clearTimeout(timer));
  // What the block started must end with it (a process exiting may take a moment): its own group,
  // and what runs in the project elsewhere (a server leads a group of its own).
  const leftRunning = await until(() => !groupAlive(child.pid!) && runningIn(project.dir).length === 0, 5_000).then(
    () => false,
    () => true,
  );
  let left = '';
  if (leftRunning) {
    left = runningIn(project.dir)
      .map((pid) => `${pid}: ${commandLine(pid)}`)
      .join('; ');
    killGroup(child.pid!);
    for (const pid of runningIn(project.dir)) {
      killGroup(pid);
      kill(pid);
    }
  }
  // Its pipes close once every process holding them is gone; one of another group may hold them.
  if (child.stdout.readable || child.stderr.readable) {
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const held = await within(closed, 10_000).then(
      () => false,
      () => true,
    );
    if (held) {
      child.stdout.destroy();
      child.stderr.destroy();
      return { command, ...exited, stdout, stderr, timedOut, leftRunning: true, left };
    }
  }
  return { command, ...exited, stdout, stderr, timedOut, leftRunning, left };
}
