/**
 * The manager's uses of `node:crypto` (a SHA-256 for names and fingerprints, random bytes for a
 * temp file name), which loads on the first call instead of with the package: importing it cost
 * about 5 ms of `import('mcpwire')`, and many hosts never hash anything.
 */
type Crypto = typeof import('node:crypto');

let crypto: Crypto | undefined;

function loaded(): Crypto {
  return (crypto ??= process.getBuiltinModule('node:crypto'));
}

/** The SHA-256 of `text` (UTF-8), as 64 hex digits. */
export function sha256Hex(text: string): string {
  return loaded().createHash('sha256').update(text, 'utf8').digest('hex');
}

/** `bytes` random bytes, as hex digits. */
export function randomHex(bytes: number): string {
  return loaded().randomBytes(bytes).toString('hex');
}
