/**
 * A legacy (Streamable HTTP with sessions) client whose `import_tasks` response stream the
 * round-robin proxy cuts after the first progress notification resumes with `Last-Event-ID`
 * through the proxy and gets the rest of the stream: the progress it missed, then the result, each
 * exactly once (`[1, 2, 3]`: once the stream is cut, its later progress is logged for the
 * resumption, not sent to the session's GET stream). One todo node; `--slow-ms` spaces the tasks
 * so that the cut falls mid-import.
 * Needs `npm run build` (the example imports dist/).
 */
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { connectClient } from './support/client.js';
import { startTodoNodes } from './support/nodes.js';
import { startRoundRobinProxy } from './support/round-robin-proxy.js';
import { ALICE, tempDir } from './support/todo-server.js';
import { within } from './support/wait.js';

describe('import_tasks behind a proxy that drops the stream', () => {
  it('resumes with Last-Event-ID and gets the result once, the progress in order and never twice', async () => {
    const temp = tempDir();
    onTestFinished(() => temp.remove());
    const nodes = await startTodoNodes(1, ['--db', path.join(temp.dir, 'tasks.db'), '--slow-ms', '1000']);
    const proxy = await startRoundRobinProxy(nodes.urls());
    const client = await connectClient({ url: `${proxy.url}/mcp` }, { era: 'legacy' });

    const dropped = proxy.dropNext({ when: (body) => body.includes('notifications/progress') });
    const progress: number[] = [];
    const result = await client.callTool(
      'import_tasks',
      { user_id: ALICE, tasks: [{ title: 'one' }, { title: 'two' }, { title: 'three' }] },
      { onProgress: (p) => progress.push(p.progress) },
    );
    const cut = await within(dropped, { what: 'the drop' });
    expect(cut.method).toBe('POST');
    expect((result.structuredContent as { tasks: Array<{ title: string }> }).tasks.map((t) => t.title)).toEqual([
      'one',
      'two',
      'three',
    ]);
    expect(progress).toEqual([1, 2, 3]);

    // The resumed GET came after the cut, in the same session, from the last event id seen.
    const after = proxy.log.slice(proxy.log.indexOf(cut) + 1);
    const resumed = after.find((r) => r.method === 'GET' && r.headers['last-event-id'] !== undefined);
    expect(resumed).toMatchObject({ status: 200, end: 'done' });
    expect(resumed!.headers['mcp-session-id']).toBe(cut.headers['mcp-session-id']);
    expect(proxy.log.filter((r) => r.end === 'dropped')).toEqual([cut]);
  });
});
