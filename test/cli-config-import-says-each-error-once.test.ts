/**
 * `mcpwire config import --from HOST` when the host's only file does not parse: the printed
 * document notes the error (`# error: FILE:LINE:COLUMN: …`) once, stderr counts it without
 * printing it again, exit 2; `--json` keeps the whole message.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from './support/cli.js';
import { startHostHome } from './support/host-homes.js';

beforeAll(() => requireBuiltCli());

describe('mcpwire config import from a broken host file', () => {
  it('names the error once, with its position, and exits 2', async () => {
    const h = startHostHome({ hosts: [] });
    const file = h.write('.cursor/mcp.json', '{\n  "mcpServers": {,,\n}');
    const run = await runCli(['config', 'import', '--from', 'cursor'], { env: h.env, cwd: h.project });
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(`# error: ${file}:2:18: invalid JSON`);
    expect((run.stdout + run.stderr).split('invalid JSON').length - 1).toBe(1);
    expect(run.stderr).toBe('error: 1 config error (each listed above): nothing to import from cursor\n');

    const json = await runCli(['config', 'import', '--from', 'cursor', '--json'], { env: h.env, cwd: h.project });
    expect(json.code).toBe(2);
    expect(json.json()).toMatchObject({
      error: { code: 'CONFIG_INVALID', message: expect.stringContaining(`${file}:2:18`) },
    });
  });
});
