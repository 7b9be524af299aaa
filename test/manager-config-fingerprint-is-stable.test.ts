/**
 * configFingerprint: key order never matters, any field that changes the connection does, and
 * provenance / secrets / trust do not.
 */
import { describe, expect, it } from 'vitest';
import { configFingerprint, stableJson } from '../src/manager/config/fingerprint.js';
import type { ManagedServer } from '../src/manager/servers/managed-server.js';

const base: ManagedServer = {
  name: 'fs',
  transport: 'stdio',
  command: 'node',
  args: ['a.js', '--x'],
  env: { A: '1', B: '2' },
};

describe('configFingerprint', () => {
  it('is a hex sha-256 that ignores key order at every depth', () => {
    const reordered: ManagedServer = {
      env: { B: '2', A: '1' },
      args: ['a.js', '--x'],
      command: 'node',
      transport: 'stdio',
      name: 'fs',
    };
    expect(configFingerprint(base)).toMatch(/^[0-9a-f]{64}$/);
    expect(configFingerprint(reordered)).toBe(configFingerprint(base));
  });

  it('changes when an arg, its order, an env value or a header changes', () => {
    const fp = configFingerprint(base);
    expect(configFingerprint({ ...base, args: ['a.js', '--y'] })).not.toBe(fp);
    expect(configFingerprint({ ...base, args: ['--x', 'a.js'] })).not.toBe(fp);
    expect(configFingerprint({ ...base, env: { A: '1', B: '3' } })).not.toBe(fp);
    expect(configFingerprint({ ...base, timeoutMs: 5 })).not.toBe(fp);
  });

  it('ignores provenance, secrets, trust and undefined members', () => {
    const fp = configFingerprint(base);
    expect(configFingerprint({ ...base, provenance: { file: '/p/.mcp.json', scope: 'project' }, secrets: ['1'] })).toBe(
      fp,
    );
    expect(configFingerprint({ ...base, trusted: false })).toBe(fp);
    expect(configFingerprint({ ...base, cwd: undefined })).toBe(fp);
  });

  it('stableJson sorts keys and keeps array order', () => {
    expect(stableJson({ b: [2, 1], a: { d: 1, c: undefined, b: null } })).toBe('{"a":{"b":null,"d":1},"b":[2,1]}');
  });
});
