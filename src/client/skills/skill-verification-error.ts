/**
 * `SkillVerificationError`: a skill file or entry refused against what the server listed. It
 * carries the URI, the reason and the expected size and digest, never the bytes that failed.
 */
import { McpError, type McpErrorDetails } from '../../protocol/errors.js';

/** Why a skill file or entry was refused. */
export type SkillRejection =
  /** The file is not in any held entry's `resources`. */
  | 'unlisted'
  /** Its byte length differs from the entry's `size` (a digest mismatch by another name). */
  | 'size'
  /** Its sha256 differs from the entry's `digest`. */
  | 'digest'
  /** The `SKILL.md` frontmatter differs from the entry's, field by field (see `differences`). */
  | 'frontmatter'
  /** The entry itself breaks the extension's rules (URI, name, digest form, missing SKILL.md). */
  | 'invalid-entry'
  /** More files or bytes than SEP-2640's per-skill limits. */
  | 'limit';

export class SkillVerificationError extends McpError {
  override readonly name: string = 'SkillVerificationError';
  declare readonly code: 'SKILL_REJECTED';
  /** Why, as a word (`reason` is the sentence). */
  readonly rejection: SkillRejection;
  /** The file (or entry) refused. */
  readonly uri: string;
  /** What the entry listed for it, when it listed it. */
  readonly expected: { size?: number; digest?: string } | undefined;
  /** The frontmatter fields that differ (`frontmatter` only). */
  readonly differences: readonly string[];

  constructor(
    rejection: SkillRejection,
    reason: string,
    details: Pick<McpErrorDetails, 'server' | 'method' | 'cause'> & {
      uri: string;
      expected?: { size?: number; digest?: string };
      differences?: readonly string[];
    },
  ) {
    super('SKILL_REJECTED', reason, details);
    this.rejection = rejection;
    this.uri = details.uri;
    this.expected = details.expected;
    this.differences = details.differences ?? [];
  }

  /** Adds the rejection, the URI, what was expected and the differing fields; never bytes. */
  override toJSON(): Record<string, unknown> {
    const out = super.toJSON();
    out.rejection = this.rejection;
    out.uri = this.uri;
    if (this.expected) out.expected = this.expected;
    if (this.differences.length > 0) out.differences = this.differences.slice(0, 20);
    return out;
  }
}
