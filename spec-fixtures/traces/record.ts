/**
 * Records the clean trace fixtures from real traffic: mcpwire's client (with `ClientOptions.trace`)
 * against the project's fixture servers over stdio, one tour per era.
 *
 *   npx tsx spec-fixtures/traces/record.ts
 *
 * writes `clean-legacy.jsonl` (scripted legacy server speaking 2025-11-25, reached through the
 * client's era probe: `server/discover` is refused, then `initialize`) and `clean-modern.jsonl`
 * (the v2 SDK server at 2026-07-28, multi-round-trip calls included) beside this file. Times,
 * latencies and pids differ from run to run; the messages do not. The spawn event's command and
 * paths are rewritten relative to the repository.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpClient } from '../../src/client/mcp-client.js';
import type { TraceRecord } from '../../src/observe/trace-record.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const servers = path.resolve(here, '../servers');

async function record(
  file: string,
  name: string,
  args: string[],
  tour: (client: McpClient) => Promise<void>,
): Promise<void> {
  const records: TraceRecord[] = [];
  const client = await McpClient.connect(
    { command: process.execPath, args },
    {
      name,
      trace: { sink: (r: TraceRecord) => records.push(r) },
      handlers: {
        sampling: () => ({
          role: 'assistant',
          content: { type: 'text', text: 'a sampled answer' },
          model: 'fixture-model',
          stopReason: 'endTurn',
        }),
        elicitation: (params) =>
          params.mode === 'url'
            ? { action: 'accept' }
            : { action: 'accept', content: { yes: true, name: 'Ada', sure: true } },
        roots: () => [{ uri: 'file:///work/project', name: 'project' }],
      },
    },
  );
  try {
    await tour(client);
  } finally {
    await client.close();
  }
  // The spawn event names this machine's paths; the fixture keeps them relative to the repository.
  const root = path.resolve(here, '../..');
  for (const r of records) {
    if (r.event !== 'spawn' || !r.detail) continue;
    r.detail = {
      ...r.detail,
      command: 'node',
      args: (r.detail.args as string[]).map((a) => (path.isAbsolute(a) ? path.relative(root, a) : a)),
    };
  }
  writeFileSync(path.join(here, file), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  console.log(`${file}: ${records.length} records`);
}

await record(
  'clean-legacy.jsonl',
  'legacy',
  [path.join(servers, 'legacy/scripted-server.mjs'), '--version', '2025-11-25', '--page-size', '4'],
  async (client) => {
    await client.ping();
    await client.listTools();
    await client.callTool('echo', { text: 'hello' });
    await client.callTool('add', { a: 2, b: 3 });
    await client.callTool('fails', {});
    await client.callTool('slow', { ms: 30, steps: 2 }, { onProgress: () => {} });
    await client.callTool('ask-sampling', { prompt: 'Say hi' });
    await client.callTool('ask-elicitation', { message: 'Proceed?' });
    await client.callTool('ask-elicitation-url', { url: 'https://example.com/sign-in' });
    await client.callTool('ask-roots', {});
    await client.callTool('ask-ping', {});
    await client.setLoggingLevel('info');
    await client.callTool('log', { level: 'warning', message: 'careful' });
    await client.listResources();
    await client.listResourceTemplates();
    await client.readResource('test://static/1');
    await client.readResource('test://static/3');
    await client.readResource('test://missing').catch(() => undefined);
    const unsubscribe = await client.subscribeResource('test://static/1');
    await client.callTool('touch', { uri: 'test://static/1' });
    await unsubscribe();
    await client.listPrompts();
    await client.getPrompt('greet', { name: 'Ada' });
    await client.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'name', value: 'A' });
    await client.callTool('change-tools', {});
    await client.listTools();
  },
);

await record('clean-modern.jsonl', 'modern', [path.join(servers, 'modern/v2-server.mjs')], async (client) => {
  await client.listTools();
  await client.callTool('echo', { text: 'hello' });
  await client.callTool('add', { a: 2, b: 3 });
  await client.callTool('fails', {});
  await client.callTool('slow', { ms: 30, steps: 2 }, { onProgress: () => {} });
  await client.callTool('confirm', { what: 'deploy' });
  await client.callTool('ask-model', { question: 'Why?' });
  await client.callTool('where', {});
  await client.callTool('two-rounds', {});
  await client.listResources();
  await client.listResourceTemplates();
  await client.readResource('test://static/hello');
  await client.readResource('test://static/blob');
  await client.listPrompts();
  await client.getPrompt('greet', { name: 'Ada' });
  await client.getPrompt('personal', {});
  await client.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'name', value: 'A' });
});
