/**
 * What the message linter ({@link lintFrames} in `lint-frames.ts`) reads and reports: the
 * recorded frames it takes, the violations it finds, and the per-message context it settled
 * (sender, revision, the request a response answers).
 */
import type { JsonRpcId } from '../../protocol/jsonrpc.js';
import type { Sender } from './method-table.js';
import type { RuleId } from './rules.js';

/** Direction of a frame: `out` is client → server, `in` is server → client (as in trace records). */
export type FrameDirection = 'out' | 'in';

/** One recorded frame, as the linter needs it. */
export interface RuleFrame {
  server: string;
  dir: FrameDirection;
  /** The decoded value: one message, or a batch array. Absent for events and unparsed frames. */
  message?: unknown;
  /** True for a frame whose bytes were not JSON at all. */
  unparsed?: boolean;
  /** For a non-message frame: its event name (`spawn`, `exit`, `close`, `connect`, `stderr`, …). */
  event?: string;
  /** The revision the recorder noted on the frame, if any: the last resort for a message's revision. */
  notedRevision?: string;
}

/** One broken rule. `frame` is the index into the frames linted. */
export interface RuleViolation {
  frame: number;
  server: string;
  dir: FrameDirection;
  id?: JsonRpcId;
  method?: string;
  rule: RuleId;
  /** Human-readable; names the field path. */
  message: string;
  /** The field path (`result.tools[0].name`, `params._meta`); for a batch item prefixed with `[i].`. */
  path?: string;
  revision?: string;
}

/** What the linter settled about one message (a batch has one per item). */
export interface MessageContext {
  sender: Sender;
  /** The revision in force for it, when known. */
  revision?: string;
  /** For a response or error: the method of the request it answers, when that request was seen. */
  answers?: string;
  /** For a response: the params of the request it answers. */
  requestParams?: unknown;
}

/** Per frame: the contexts of its messages (none for events and unparsed frames). */
export interface FrameContext {
  messages: MessageContext[];
}

/** The outcome of {@link lintFrames}. */
export interface LintOutcome {
  /** In frame order (within a frame, in the order found). */
  violations: RuleViolation[];
  /** One entry per input frame. */
  contexts: FrameContext[];
}
