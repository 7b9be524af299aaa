/**
 * The processes of this machine as Linux's `/proc` lists them, for finding a server's
 * descendants by their parent links. Elsewhere (macOS, Windows, a Linux without `/proc`) the
 * table is empty and nothing is found.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

/** One process, as far as stopping it safely needs. */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** Its process group id. */
  pgid: number;
  /**
   * When it started, in clock ticks since boot: with the pid, it names this process and no later one reusing the pid.
   */
  start: string;
}

const PROC = '/proc';
const HAS_PROC = process.platform === 'linux';

/** Every live process (zombies left out), read asynchronously; undefined where there is no `/proc`. */
export async function readProcessTable(): Promise<ProcessEntry[] | undefined> {
  if (!HAS_PROC) return undefined;
  let names: string[];
  try {
    names = await readdir(PROC);
  } catch {
    return undefined;
  }
  const entries = await Promise.all(
    names.filter(isPid).map(async (name) => {
      try {
        return parseStat(Number(name), await readFile(`${PROC}/${name}/stat`, 'utf8'));
      } catch {
        return undefined; // it exited while we looked
      }
    }),
  );
  return entries.filter((entry): entry is ProcessEntry => entry !== undefined);
}

/** {@link readProcessTable}, synchronously: for `destroy()` and the process 'exit' hook, which cannot wait. */
export function readProcessTableSync(): ProcessEntry[] | undefined {
  if (!HAS_PROC) return undefined;
  const entries: ProcessEntry[] = [];
  let names: string[];
  try {
    names = readdirSync(PROC);
  } catch {
    return undefined;
  }
  for (const name of names) {
    if (!isPid(name)) continue;
    try {
      const entry = parseStat(Number(name), readFileSync(`${PROC}/${name}/stat`, 'utf8'));
      if (entry) entries.push(entry);
    } catch {
      // It exited while we looked.
    }
  }
  return entries;
}

/**
 * The descendants of `root` in `table` (children, their children, …), found by parent links; `root` itself excluded.
 */
export function descendantsOf(root: number, table: readonly ProcessEntry[]): ProcessEntry[] {
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of table) {
    const siblings = children.get(entry.ppid);
    if (siblings) siblings.push(entry);
    else children.set(entry.ppid, [entry]);
  }
  const found: ProcessEntry[] = [];
  const queue = [root];
  const seen = new Set(queue);
  for (let i = 0; i < queue.length; i++) {
    for (const child of children.get(queue[i]!) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** True while `entry`'s process runs: same pid, same start time (not a successor reusing the pid), not a zombie. */
export function isStillRunning(entry: ProcessEntry): boolean {
  if (!HAS_PROC) return false;
  try {
    const now = parseStat(entry.pid, readFileSync(`${PROC}/${entry.pid}/stat`, 'utf8'));
    return now !== undefined && now.start === entry.start;
  } catch {
    return false;
  }
}

function isPid(name: string): boolean {
  return name.length > 0 && name.charCodeAt(0) >= 48 && name.charCodeAt(0) <= 57;
}

/**
 * Parses `/proc/<pid>/stat`: `pid (comm) state ppid pgrp session … starttime …`. The command
 * name may hold spaces and parentheses, so the fields are counted from its last `)`. Zombies
 * (state `Z`) are dead already: undefined.
 */
function parseStat(pid: number, stat: string): ProcessEntry | undefined {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 of proc(5) (state); starttime is field 22.
  if (fields[0] === 'Z' || fields.length < 20) return undefined;
  return { pid, ppid: Number(fields[1]), pgid: Number(fields[2]), start: fields[19]! };
}
