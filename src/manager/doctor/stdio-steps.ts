/**
 * The checks of a stdio server before its session: `command` (found, executable) and `start` (the
 * process starts and answers `initialize`, or `server/discover`, in time; when it exits, its code
 * and the stderr lines the error does not already quote).
 */
import { errorMessage } from '../../protocol/errors.js';
import { checkCommand } from './command-check.js';
import { commandLine, failKind, type Diagnosis } from './diagnosis.js';

/** The session checks that follow: skipped when a step here fails. */
const SESSION = ['revision', 'tools', 'schemas'];

/** Runs the steps; resolves true when the server is connected. */
export async function stdioSteps(d: Diagnosis): Promise<boolean> {
  const { spec, options } = d;
  const command = await d.check('command', () =>
    checkCommand(spec.command!, spec.cwd ?? options.cwd ?? process.cwd(), options.envPath ?? process.env.PATH),
  );
  if (command.verdict === 'fail') {
    d.skip(['start', ...SESSION], 'the command is not found');
    return false;
  }
  const start = await d.check('start', async (signal) => {
    await d.connect(signal);
    if (d.connected) {
      const { client, ms } = d.connected;
      const info = client.serverInfo;
      return {
        verdict: 'ok',
        detail: `answered ${client.era === 'modern' ? 'server/discover' : 'initialize'} in ${ms} ms${info ? ` (${info.name} ${info.version})` : ''}`,
      };
    }
    const message = errorMessage(d.connectError);
    const unsaid = d.stderr.filter((line) => !message.includes(line));
    return {
      verdict: 'fail',
      kind: failKind(d.connectError),
      detail: `${message}${unsaid.length ? `; its stderr: ${unsaid.join(' | ')}` : ''}`,
      fix: `run the command yourself to see why: ${commandLine(spec)}`,
    };
  });
  if (start.verdict === 'fail') d.skip(SESSION, 'the server did not start');
  return start.verdict !== 'fail';
}
