/**
 * base64url (RFC 4648 §5, no padding) and base64 (§4) on every runtime: built on `btoa`/`atob`,
 * which Node, Deno, Bun, Workers and browsers all have, instead of Node's `Buffer`.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The unpadded base64url text of `bytes`. */
export function base64urlFromBytes(bytes: Uint8Array): string {
  let binary = '';
  // Chunks keep `String.fromCharCode`'s argument list far below engines' limits.
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, Math.min(i + 0x8000, bytes.length)));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The unpadded base64url text of `text`'s UTF-8 bytes. */
export function base64urlFromText(text: string): string {
  return base64urlFromBytes(encoder.encode(text));
}

/**
 * The bytes `text` encodes, or undefined when it is not base64url (a character outside the
 * alphabet, `=` padding, a length no encoding has).
 */
export function bytesFromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The UTF-8 text `text` encodes (malformed sequences become U+FFFD), or undefined when it is not base64url. */
export function textFromBase64url(text: string): string | undefined {
  const bytes = bytesFromBase64url(text);
  return bytes === undefined ? undefined : decoder.decode(bytes);
}

/** The padded base64 text of `text`'s UTF-8 bytes. */
export function base64FromText(text: string): string {
  const bytes = encoder.encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, Math.min(i + 0x8000, bytes.length)));
  return btoa(binary);
}

/**
 * The UTF-8 text of base64 or base64url `text`, read as leniently as Node's `Buffer` reads it:
 * characters outside both alphabets are skipped, the text ends at its first `=`, a dangling last
 * character is dropped. Never throws.
 */
export function textFromBase64(text: string): string {
  let clean = text
    .split('=', 1)[0]!
    .replace(/[^A-Za-z0-9+/_-]/g, '')
    .replace(/-/g, '+')
    .replace(/_/g, '/');
  if (clean.length % 4 === 1) clean = clean.slice(0, -1);
  const binary = atob(clean);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return decoder.decode(bytes);
}

/**
 * The bytes of standard base64 `text` (RFC 4648 §4; padding optional), or undefined when it is
 * not base64: a strict reader, for bytes that are verified against a digest afterwards.
 */
export function bytesFromBase64(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  const bare = text.replace(/=+$/, '');
  if (bare.length % 4 === 1 || (text.length !== bare.length && text.length % 4 !== 0)) return undefined;
  const binary = atob(bare);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
