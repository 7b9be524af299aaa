/**
 * The manager's uses of `node:crypto` (a SHA-256 for names and fingerprints, random bytes for a
 * temp file name, checking a configured private key), which loads on the first call instead of with the package:
 * importing it cost about 5 ms of `import('mcpwire')`, and many hosts never hash anything.
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

/** Throws when `pem` holds no private key Node can read (PEM or PKCS#8); returns nothing. */
export function checkPrivateKey(pem: string): void {
  loaded().createPrivateKey(pem);
}
