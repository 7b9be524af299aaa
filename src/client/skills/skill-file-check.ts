/**
 * Verifying one skill file's bytes against its entry (SEP-2640): the encoded length is bounded
 * by the listed size before anything is decoded (so a lying server cannot make the host decode
 * more than the entry allowed), then the exact byte count, then the sha256 digest (Web Crypto).
 * A size mismatch is a digest mismatch, whatever the bytes hash to.
 */
import type { SkillResourceEntry } from '../../protocol/extensions/skills-types.js';
import { bytesFromBase64 } from '../../util/base64url.js';
import { SkillVerificationError } from './skill-verification-error.js';

/** One `contents` item of a `resources/read` answer: text or base64 blob. */
export interface ReadContent {
  uri?: unknown;
  mimeType?: unknown;
  text?: unknown;
  blob?: unknown;
}

/** `sha256:` and the lowercase hex SHA-256 of `bytes`. */
export async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const byte of hash) hex += byte.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}

/**
 * The verified bytes (and text, for a text item) of `content`; throws {@link SkillVerificationError}
 * naming `uri`, with what the entry expected and never the bytes.
 */
export async function verifiedBytes(
  content: ReadContent,
  listed: SkillResourceEntry,
  facts: { uri: string; server: string },
): Promise<{ bytes: Uint8Array; text: string | undefined }> {
  const { uri, server } = facts;
  const expected = { size: listed.size, digest: listed.digest };
  const refuse = (rejection: 'size' | 'digest', reason: string): never => {
    throw new SkillVerificationError(rejection, reason, { server, method: 'resources/read', uri, expected });
  };
  let bytes: Uint8Array;
  let text: string | undefined;
  if (typeof content.text === 'string') {
    // A UTF-8 encoding is never shorter than the UTF-16 length: more units than bytes listed is too big.
    if (content.text.length > listed.size) refuse('size', `${uri} is longer than the ${listed.size} bytes listed`);
    text = content.text;
    bytes = new TextEncoder().encode(text);
  } else if (typeof content.blob === 'string') {
    if (content.blob.length > Math.ceil(listed.size / 3) * 4 + 2)
      refuse('size', `${uri} is longer than the ${listed.size} bytes listed`);
    const decoded = bytesFromBase64(content.blob);
    if (!decoded) return refuse('digest', `${uri} came as a blob that is not base64`);
    bytes = decoded;
  } else {
    return refuse('digest', `${uri} came with neither text nor blob`);
  }
  if (bytes.length !== listed.size) refuse('size', `${uri} has ${bytes.length} bytes, the entry lists ${listed.size}`);
  const digest = await sha256Digest(bytes);
  if (digest !== listed.digest) refuse('digest', `${uri} does not match the digest its entry lists`);
  return { bytes, text };
}
