/**
 * The stdio transport's state: where it is in its life (`State`, with the data each state
 * carries) and what the child's events have reported (`ChildFacts`). Types only; the
 * transitions are `StdioTransport`'s (`close`, `destroy`, `settle`, the graces).
 */
import type { McpError } from '../../protocol/errors.js';

/** How the server process ended: its exit code, or the signal that killed it. */
export type ExitStatus = { code: number | null; signal: NodeJS.Signals | null };

/**
 * A wait for the rest of the server's end once it began by itself: `exit` (stdout closed, the
 * process still runs: STDOUT_EOF_GRACE_MS for its exit) or `pipes` (it exited: PIPE_GRACE_MS for
 * the last output). When it runs out, `closed` settles with what is known.
 */
export interface Grace {
  awaiting: 'exit' | 'pipes';
  timer: ReturnType<typeof setTimeout>;
}

/**
 * The transport's life: `open` → `stopping` (the client asked) → `closed`, or `open` → `closed`
 * (the server ended by itself). Each state carries what it needs.
 */
export type State =
  /** The server runs and takes messages. */
  | { name: 'open'; grace: Grace | undefined }
  /**
   * The client asked for the end: `close()` (`sequence`: the running close sequence) or
   * `destroy(error)` (`error`: what `closed` resolves with). Sends are refused; `closed` will carry no crash error.
   */
  | { name: 'stopping'; error: McpError | undefined; sequence: Promise<void> | undefined; grace: Grace | undefined }
  /**
   * `closed` has settled. `stopped`: the end was asked for (close, destroy, or this transport
   * stopping a broken server), so sends say "the connection is closed" rather than why the server
   * ended. `sequence`: a close sequence that may still be stopping what is left of the tree.
   */
  | { name: 'closed'; stopped: boolean; sequence: Promise<void> | undefined };

/** What the child's events have reported so far, in whatever order they came. */
export interface ChildFacts {
  exit: ExitStatus | undefined;
  stdoutEnded: boolean;
  stderrEnded: boolean;
  /** The first stdin write error (EPIPE once the server is gone): sends fail from then on. */
  writeError: Error | undefined;
}
