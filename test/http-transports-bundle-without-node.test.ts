/**
 * `mcpwire/http`'s neutral entry bundles for a browser or a Worker with nothing left to resolve:
 * no `node:*` and no undici import (the undici engine is registered by the Node entries, never
 * imported by the transports), while its Node entry keeps undici behind a lazy chunk.
 */
import { build, stop } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

// esbuild's service process goes with the file.
afterAll(() => stop());

async function importsOf(entry: string, platform: 'neutral' | 'browser'): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform,
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
    ...(platform === 'neutral' ? { mainFields: ['module', 'main'] } : {}),
  });
  return Object.values(result.metafile.outputs).flatMap((output) => output.imports.map((i) => i.path));
}

describe('the HTTP transports bundle without Node', () => {
  it.each(['neutral', 'browser'] as const)(
    'src/transport/http/index.ts on platform %s imports nothing',
    async (platform) => {
      expect(await importsOf('src/transport/http/index.ts', platform)).toEqual([]);
    },
  );

  it('the Node entry (src/transport/http/node.ts) reaches undici only through its lazy engine chunk', async () => {
    const result = await build({
      entryPoints: ['src/transport/http/node.ts'],
      bundle: true,
      splitting: true,
      outdir: 'out',
      platform: 'node',
      format: 'esm',
      packages: 'external',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const entry = Object.entries(result.metafile.outputs).find(([, output]) => output.entryPoint !== undefined)!;
    const statics = entry[1].imports.filter((i) => i.kind === 'import-statement').map((i) => i.path);
    expect(statics).not.toContain('undici');
    expect(entry[1].imports.some((i) => i.kind === 'dynamic-import')).toBe(true);
  });
});
