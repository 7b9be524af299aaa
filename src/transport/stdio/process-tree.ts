/**
 * Stopping a stdio server's whole process tree.
 *
 * What is covered, by platform:
 * - **Linux**: the server is spawned `detached`, so it leads its own process group, and a signal
 *   sent to the negative pid reaches every member of that group — the server, and every
 *   descendant that did not move to a group of its own (`npx` → `node` → the helpers a server
 *   starts) — whether or not the server itself is still alive (a group outlives its leader).
 *   Descendants that did move out (`setsid`/`setpgid`, Node's `detached: true`: a browser a server
 *   launches) are found by walking the parent links in `/proc/<pid>/stat` while the server still
 *   runs — {@link ProcessTree.survey}, at the start of `close()` and in `destroy()` — and are then
 *   signalled one by one (by pid and start time, so a reused pid is never hit). Not covered: an
 *   outsider started after the survey, and the outsiders of a server that exited on its own (its
 *   children are re-parented at once; their link to it is gone).
 * - **macOS and other POSIX systems**: the process group as on Linux, whether or not the server is
 *   still alive; there is no `/proc`, so descendants in a group or session of their own are not
 *   found and outlive the close.
 * - **Windows**: no process groups: a signal reaches the direct child only (`child.kill`, while it
 *   runs); its children — the node `npx` starts, a server's helpers — may outlive it.
 */
import type { ChildProcess } from 'node:child_process';
import {
  descendantsOf,
  isStillRunning,
  readProcessTable,
  readProcessTableSync,
  type ProcessEntry,
} from './process-table.js';

/** True on Windows, where only the direct child can be signalled. */
export const IS_WINDOWS = process.platform === 'win32';

/**
 * Sends `signal` to the process group `child` leads (POSIX), whether or not `child` is still
 * alive, or to `child` alone while it runs (Windows). Never throws: a group that is already gone
 * (ESRCH) is what we wanted anyway.
 */
export function signalTree(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (IS_WINDOWS) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    } else if (child.pid !== undefined) {
      process.kill(-child.pid, signal);
    }
  } catch {
    // ESRCH (nothing left in the group) or EPERM; neither is actionable.
  }
}

/** True while the process group `pgid` has a member (POSIX). */
function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A server's process tree as closing it sees it: the process group the server leads, plus (Linux)
 * the descendants a survey found outside that group. See the file comment for what each
 * platform covers.
 */
export class ProcessTree {
  private readonly child: ChildProcess;
  /** Every descendant surveys found, in the group or outside it. */
  private readonly known: ProcessEntry[] = [];
  private surveyed = false;
  /** SIGKILL went out: nothing that was reachable still runs (only the leader's exit may be pending). */
  private killed = false;

  constructor(child: ChildProcess) {
    this.child = child;
  }

  /** True while the server itself has not exited. */
  get leaderRunning(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * True while the server or (as far as can be known) anything else of its tree still runs: after
   * a survey, a surveyed descendant that is not a zombie (a group that outlived its leader may
   * hold only zombies until init reaps them); without one, any member of the group (POSIX).
   */
  get running(): boolean {
    if (this.leaderRunning) return true;
    if (this.killed) return false;
    if (this.surveyed) return this.known.some(isStillRunning);
    const pid = this.child.pid;
    return !IS_WINDOWS && pid !== undefined && groupExists(pid);
  }

  /**
   * Linux: records the server's descendants, so that those that left its process group can still
   * be signalled after the server is gone (their parent link to it dies with it) and so that a
   * close knows which processes to wait for. Call while the server runs; later surveys add to
   * earlier ones. A no-op elsewhere. Never rejects.
   */
  async survey(): Promise<void> {
    if (IS_WINDOWS || this.child.pid === undefined || !this.leaderRunning) return;
    this.note(await readProcessTable());
  }

  /**
   * {@link survey}, synchronously (for `destroy()` and the process 'exit' hook); `table` is a
   * process table already read (one read for every tree the exit hook stops).
   */
  surveySync(table?: readonly ProcessEntry[]): void {
    if (IS_WINDOWS || this.child.pid === undefined || !this.leaderRunning) return;
    this.note(table ?? readProcessTableSync());
  }

  /**
   * Sends `signal` to the group (whether or not the server still runs) and to every surveyed
   * outsider that still runs. Never throws.
   */
  signal(signal: NodeJS.Signals): void {
    signalTree(this.child, signal);
    if (signal === 'SIGKILL') this.killed = true;
    for (const outsider of this.known) {
      if (outsider.pgid === this.child.pid || !isStillRunning(outsider)) continue;
      try {
        process.kill(outsider.pid, signal);
      } catch {
        // Gone meanwhile, or not ours to signal.
      }
    }
  }

  /** Adds the descendants in `table` (undefined: no `/proc`, nothing learnt). */
  private note(table: readonly ProcessEntry[] | undefined): void {
    if (table === undefined || this.child.pid === undefined) return;
    this.surveyed = true;
    for (const entry of descendantsOf(this.child.pid, table)) {
      if (!this.known.some((known) => known.pid === entry.pid && known.start === entry.start)) this.known.push(entry);
    }
  }
}

/** Trees still to be stopped; killed synchronously if this process exits first. */
const live = new Set<{ killNow(table: () => readonly ProcessEntry[] | undefined): void }>();
let exitHookInstalled = false;

/**
 * Registers `tree` (or a bare child's group) to be SIGKILLed if this process exits before the
 * returned function unregisters it, so no server outlives its client. A tree whose server still
 * runs is surveyed first (Linux), so its outsiders die too. Unregister once the whole tree is
 * stopped — not when the server exits: its group may outlive it.
 */
export function killTreeOnExit(tree: ProcessTree | ChildProcess): () => void {
  const entry = {
    killNow: (table: () => readonly ProcessEntry[] | undefined) => {
      if (tree instanceof ProcessTree) {
        if (tree.leaderRunning) tree.surveySync(table());
        tree.signal('SIGKILL');
      } else {
        signalTree(tree, 'SIGKILL');
      }
    },
  };
  live.add(entry);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // One listener for all transports: an 'exit' listener may only do synchronous work.
    process.on('exit', () => {
      let table: readonly ProcessEntry[] | undefined | null = null;
      const read = () => (table === null ? (table = readProcessTableSync()) : table);
      for (const running of live) running.killNow(read);
    });
  }
  return () => {
    live.delete(entry);
  };
}
