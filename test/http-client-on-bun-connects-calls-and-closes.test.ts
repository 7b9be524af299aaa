/**
 * Under Bun, an HTTP client connects, calls and closes in both eras (issue 27): Bun's `undici`
 * is a shim without the pool (`close()` threw `this.dispatcher.close is not a function`), so on
 * Bun the transports default to the fetch engine. The client runs from `dist/` (run
 * `npm run build` first) in a Bun process against a kit server this test serves on loopback.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startKitHttp } from './support/kit-http.js';
import { changeFeedServer } from './support/kit-servers.js';
import { ROOT, runtimeBinary } from './support/runtimes.js';

const run = promisify(execFile);
const SCRIPT = path.join(ROOT, 'test/support/bun-http-client.mjs');

describe('an HTTP client under Bun', () => {
  it('connects, lists, calls and closes in both eras, and exits cleanly', async () => {
    const kit = await startKitHttp(changeFeedServer('bun-client'));
    // Bounded: a hung client is killed (SIGKILL) and the test fails with what it printed.
    const { stdout, stderr } = await run(runtimeBinary('bun'), [SCRIPT, kit.url], {
      cwd: ROOT,
      timeout: 60_000,
      killSignal: 'SIGKILL',
      encoding: 'utf8',
    });
    expect(stderr).not.toContain('TypeError');
    expect(JSON.parse(stdout.trim())).toEqual({
      runtime: 'bun',
      seen: [
        { era: 'modern', tools: ['echo'], text: 'echo' },
        { era: 'legacy', tools: ['echo'], text: 'echo' },
      ],
    });
  });
});
