/**
 * `diagnoseServer`: every check of one configured server, in the order they depend on each
 * other, each bounded by `timeoutMs`; a check whose ground failed is skipped, naming it.
 *
 * Every server: `definition` (the entry is complete and typed), `approval` (only when a project
 * server is not approved: it is not started). Then stdio: `command`, `start`
 * (`stdio-steps.ts`); URL: `dns`, `tcp`, `tls`, `http`, `oauth`, `login` (`url-steps.ts`). Then,
 * once connected: `revision`, `tools`, `schemas`. Last, for a URL server it reached: `card` (its
 * MCP Server Card, compared with what the connection said; `card-check.ts`).
 *
 * The server's configured secrets never appear in what it returns; the connect uses the stored
 * login only (no browser).
 */
import type { Tool } from '../../protocol/types.js';
import { checkServerDefinition } from '../servers/check-definition.js';
import type { ManagedServer } from '../servers/managed-server.js';
import { checkServerCard } from './card-check.js';
import { Diagnosis, type DiagnoseOptions } from './diagnosis.js';
import type { ServerDiagnosis } from './doctor-types.js';
import { skipped } from './run-check.js';
import { stdioSteps } from './stdio-steps.js';
import { checkToolSchemas } from './tool-checks.js';
import { urlSteps } from './url-steps.js';
import { shellLine } from '../../util/shell-quote.js';
import { selfCommand } from '../../util/self-command.js';

export { DEFAULT_CHECK_TIMEOUT_MS, targetText, type DiagnoseOptions } from './diagnosis.js';

const STDIO_STEPS = ['command', 'start'];
const URL_STEPS = ['dns', 'tcp', 'tls', 'http', 'oauth', 'login'];
const SESSION = ['revision', 'tools', 'schemas'];

/** Diagnoses `spec`. Never rejects; everything it started is closed when it resolves. */
export async function diagnoseServer(spec: ManagedServer, options: DiagnoseOptions): Promise<ServerDiagnosis> {
  const d = new Diagnosis(spec, options);
  const rest = [...(spec.transport === 'stdio' ? STDIO_STEPS : URL_STEPS), ...SESSION];
  const definition = await d.check('definition', async () => {
    checkServerDefinition(spec, `server "${spec.name}"`);
    const where = spec.provenance?.file ? ` in ${spec.provenance.file}` : '';
    return { verdict: 'ok', detail: `a complete ${spec.transport} entry${where}` };
  });
  if (definition.verdict === 'fail') {
    definition.kind = 'config';
    definition.fix = 'correct the entry (mcpwire config check shows every problem of the file)';
    d.skip(rest, 'the definition is broken');
    return d.report();
  }
  if (spec.enabled === false) {
    d.skip(rest, 'the server is disabled in its config ("enabled": false)');
    return d.report();
  }
  if (options.approved === false) {
    d.add({
      id: 'approval',
      verdict: 'fail',
      kind: 'config',
      detail: `defined in ${spec.provenance?.file ?? 'a project file'} and not approved to start`,
      fix: `pass --trust-project, or approve it on a terminal (this asks once): ${shellLine([...selfCommand(), 'doctor', spec.name])}`,
      ms: 0,
    });
    d.skip(rest, 'the server is not approved');
    return d.report();
  }
  try {
    if (await (spec.transport === 'stdio' ? stdioSteps(d) : urlSteps(d))) await sessionChecks(d);
    if (spec.transport !== 'stdio') await cardStep(d);
    return d.report();
  } finally {
    await d.close();
  }
}

/** `revision`, `tools`, `schemas` on the connected client. */
async function sessionChecks(d: Diagnosis): Promise<void> {
  const client = d.connected!.client;
  await d.check('revision', async () => ({
    verdict: 'ok',
    detail: `${client.protocolVersion} (${client.era === 'modern' ? 'modern, stateless' : 'legacy, initialize'})`,
  }));
  let tools: Tool[] | undefined;
  const listed = await d.check('tools', async (signal) => {
    if (!client.capabilities.tools) return { verdict: 'ok', detail: 'the server offers no tools' };
    tools = await client.listTools({ signal, timeoutMs: d.timeoutMs });
    return { verdict: 'ok', detail: `${tools.length} tool(s) listed` };
  });
  if (listed.verdict === 'fail') {
    listed.kind = 'tool';
    listed.fix ??= 'the server fails tools/list: see its logs';
  }
  const all = tools;
  if (all) await d.check('schemas', async () => checkToolSchemas(all));
  else d.add(skipped('schemas', listed.verdict === 'fail' ? 'the tools did not list' : 'no tools'));
}

/** `card`, unless the host was never reached (no DNS, TCP or TLS). */
async function cardStep(d: Diagnosis): Promise<void> {
  const unreached = d.checks.find((c) => ['dns', 'tcp', 'tls'].includes(c.id) && c.verdict === 'fail');
  if (unreached) d.add(skipped('card', `the host was not reached (${unreached.id})`));
  else await d.check('card', (signal) => checkServerCard(d, signal));
}
