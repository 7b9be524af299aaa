import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('the public surface', () => {
  it('exports exactly this list of runtime names', () => {
    expect(Object.keys(api).sort()).toMatchInlineSnapshot();
  });

  it('reports the package version as clientInfo.version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(api.VERSION).toBe(pkg.version);
  });
});
