/**
 * The manager's uses of `node:crypto` (a SHA-256 for names and fingerprints, random bytes for a
 * temp file name, checking a configured private key), which loads on the first call instead of with the package:
 * importing it cost about 5 ms of `import('mcpwire')`, and many hosts never hash anything.
 * Where there is no `node:crypto` (a browser, a Worker: the tool registry is in the neutral root),
 * {@link sha256Hex} computes the same digest in plain JavaScript; the other two need Node.
 */
import { sha256HexPortable } from '../util/sha256.js';

type Crypto = typeof import('node:crypto');

let crypto: Crypto | undefined;

type Host = { process?: { getBuiltinModule?: (id: string) => unknown } };

/** `node:crypto` where the runtime has it (Node, Deno, Bun), else undefined. */
function nodeCrypto(): Crypto | undefined {
  return (crypto ??= (globalThis as Host).process?.getBuiltinModule?.('node:crypto') as Crypto | undefined);
}

function loaded(): Crypto {
  return (crypto ??= process.getBuiltinModule('node:crypto'));
}

/** The SHA-256 of `text` (UTF-8), as 64 hex digits. */
export function sha256Hex(text: string): string {
  const node = nodeCrypto();
  return node ? node.createHash('sha256').update(text, 'utf8').digest('hex') : sha256HexPortable(text);
}

/** `bytes` random bytes, as hex digits. */
export function randomHex(bytes: number): string {
  return loaded().randomBytes(bytes).toString('hex');
}

/** Throws when `pem` holds no private key Node can read (PEM or PKCS#8); returns nothing. */
export function checkPrivateKey(pem: string): void {
  loaded().createPrivateKey(pem);
}
