/**
 * `mcpwire call` of a tool that answers `isError`, from the built CLI against a real stdio server
 * (the scripted fixture's `fails`), named on the command line and through a config file: the
 * tool's text is printed once, on stdout as any result is; stderr is one `error:` line naming the
 * server and the tool without repeating the text; the exit code is 5; `--json` is one envelope
 * whose `error.message` quotes the text's first line.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli, SCRIPTED } from './support/cli.js';
import { startHostHome } from './support/host-homes.js';

beforeAll(() => requireBuiltCli());

const TEXT = 'this tool always fails';
const count = (text: string, part: string) => text.split(part).length - 1;

describe('mcpwire call of a tool that reports an error', () => {
  it('prints the tool text once (stdout) and one error line (stderr) that does not repeat it; exit 5', async () => {
    const h = startHostHome({ hosts: [] });
    h.write(
      '.mcpwire/config.json',
      JSON.stringify({ mcpServers: { tracker: { command: process.execPath, args: [SCRIPTED] } } }),
    );
    for (const [target, server] of [
      [['--', process.execPath, SCRIPTED], 'scripted-server'],
      [['--server', 'tracker'], 'tracker'],
    ] as const) {
      const run = await runCli(['call', 'fails', ...target], { env: h.env, cwd: h.project });
      expect(run.code).toBe(5);
      expect(count(run.stdout + run.stderr, TEXT), `${run.stdout}${run.stderr}`).toBe(1);
      expect(run.stdout).toContain(TEXT);
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toBe(`error: server "${server}": tool "fails" reported an error (its text is above, on stdout)`);
    }
  });

  it('--json: one envelope, the text in error.message and error.result, nothing on stderr', async () => {
    const run = await runCli(['call', 'fails', '--json', '--', process.execPath, SCRIPTED]);
    expect(run.code).toBe(5);
    expect(run.stderr).toBe('');
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(run.json()).toMatchObject({
      ok: false,
      error: {
        code: 'TOOL_ERROR',
        exitCode: 5,
        message: expect.stringMatching(
          new RegExp(`^server "scripted-server": tool "fails" reported an error: .*${TEXT}`),
        ),
        result: { isError: true },
      },
    });
  });
});
