/**
 * A package's `fileSha256` checked before it is installed (the registry's rule: "clients must
 * validate the downloaded file … before running"). npm: the version's packument names its
 * `dist.tarball` (npm keeps only sha512/sha1), which is downloaded (bounded) and hashed. PyPI:
 * the release's files (`/pypi/<id>/<ver>/json`) must include one with that sha256. OCI and the
 * rest: not checkable this way. Runtime-neutral: `fetch` and Web Crypto.
 */
import { McpError } from '../../protocol/errors.js';
import { boundedBytes, boundedText, registryBase } from './registry-client.js';
import type { PackageJson } from './server-json.js';

export interface DigestOptions {
  fetch?: typeof fetch;
  /** The largest tarball downloaded; default 64 MiB. */
  maxBytes?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * `'ok'` when the package's file has its `fileSha256`; `'not-applicable'` when it has none or
 * its kind cannot be checked. Rejects `CONFIG_INVALID` on a mismatch (nothing may be installed)
 * and `TRANSPORT` when the package registry cannot be read.
 */
export async function checkPackageDigest(
  pkg: PackageJson,
  options: DigestOptions = {},
): Promise<'ok' | 'not-applicable'> {
  const expected = pkg.fileSha256;
  if (expected === undefined || pkg.version === undefined) return 'not-applicable';
  const get = async (url: string): Promise<Response> => {
    const timeout = AbortSignal.timeout(options.timeoutMs ?? 60_000);
    const response = await (options.fetch ?? fetch)(url, {
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new McpError(
        'TRANSPORT',
        `${url} answered HTTP ${response.status} (checking fileSha256 of ${pkg.identifier})`,
      );
    }
    return response;
  };
  const json = async (url: string): Promise<Record<string, unknown>> => {
    const value = JSON.parse(await boundedText(await get(url), 8 << 20, url)) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  };
  if (pkg.registryType === 'npm') {
    const base = registryBase(pkg.registryBaseUrl ?? 'https://registry.npmjs.org');
    const manifest = await json(`${base}/${pkg.identifier.replace('/', '%2f')}/${encodeURIComponent(pkg.version)}`);
    const dist = manifest.dist as { tarball?: unknown } | undefined;
    if (typeof dist?.tarball !== 'string') throw mismatch(pkg, 'its packument names no dist.tarball');
    const tarball = registryBase(dist.tarball);
    const max = options.maxBytes ?? 64 << 20;
    const bytes = await boundedBytes(await get(tarball), max, tarball);
    const actual = hex(await crypto.subtle.digest('SHA-256', bytes));
    if (actual !== expected) throw mismatch(pkg, `its tarball's sha256 is ${actual}, not ${expected}`);
    return 'ok';
  }
  if (pkg.registryType === 'pypi') {
    const base = registryBase(pkg.registryBaseUrl ?? 'https://pypi.org');
    const release = await json(
      `${base}/pypi/${encodeURIComponent(pkg.identifier)}/${encodeURIComponent(pkg.version)}/json`,
    );
    const files = Array.isArray(release.urls) ? (release.urls as Array<{ digests?: { sha256?: unknown } }>) : [];
    if (!files.some((file) => file.digests?.sha256 === expected))
      throw mismatch(pkg, `no file of release ${pkg.version} has sha256 ${expected}`);
    return 'ok';
  }
  return 'not-applicable';
}

function mismatch(pkg: PackageJson, why: string): McpError {
  return new McpError(
    'CONFIG_INVALID',
    `${pkg.registryType} package ${pkg.identifier}@${pkg.version} does not match its fileSha256: ${why}; not installed`,
  );
}

function hex(buffer: ArrayBuffer): string {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
