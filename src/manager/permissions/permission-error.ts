/**
 * The error of a tool call the permission rules (or the user, asked) refused: nothing was sent.
 */
import { McpError, type McpErrorDetails } from '../../protocol/errors.js';
import type { PermissionVerdict } from './permission-rules.js';

/** The fields of a {@link PermissionError}. */
export interface PermissionErrorDetails extends Pick<McpErrorDetails, 'cause' | 'server' | 'method'> {
  verdict: PermissionVerdict;
}

/**
 * `PERMISSION_DENIED`: the call was refused before anything was sent. `verdict` says which rule
 * from which file decided (or the default mode); the message names the tool and repeats it.
 */
export class PermissionError extends McpError {
  override readonly name: string = 'PermissionError';
  declare readonly code: 'PERMISSION_DENIED';
  /** What the rules said about the tool, and why; an `ask` verdict when the user refused or no one could be asked. */
  readonly verdict: PermissionVerdict;

  constructor(reason: string, details: PermissionErrorDetails) {
    super('PERMISSION_DENIED', reason, details);
    this.verdict = details.verdict;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), verdict: this.verdict };
  }
}
