/**
 * How `npm run conformance` judges a server scenario from the suite's checks
 * (scripts/conformance-server.mjs): a pass needs a SUCCESS and no FAILURE or WARNING; a scenario
 * with only INFO checks (the suite found nothing to test) fails; only the suite's whole-scenario
 * skip (a SKIPPED check under the scenario's own name) is set aside, never a skip because the
 * server lacks something; and the runs of the `next` suite add a 2026-07-28 rerun exactly for
 * scenarios that list it beside older revisions.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM script without types
import { judge, serverRunsOf } from '../scripts/conformance-server.mjs';

const check = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  status,
  description: `${id} check`,
  ...extra,
});

describe('server scenario verdicts', () => {
  it('pass with a SUCCESS and no FAILURE or WARNING', () => {
    expect(judge('tools-list', [check('a', 'SUCCESS'), check('b', 'INFO'), check('c', 'SKIPPED')])).toMatchObject({
      ok: true,
      successes: 1,
    });
  });

  it.each([
    ['a FAILURE', [check('a', 'SUCCESS'), check('b', 'FAILURE', { errorMessage: 'wrong' })], 'FAILURE b'],
    ['a WARNING', [check('a', 'SUCCESS'), check('b', 'WARNING', { errorMessage: 'should' })], 'WARNING b'],
    [
      'only INFO checks',
      [check('server-sse-content-type', 'INFO', { details: { message: 'JSON instead of SSE' } })],
      'no successful check',
    ],
    ['no checks.json', undefined, 'no checks.json'],
    [
      'skips for what the server lacks',
      [check('sep-2575-server-sends-subscription-ack', 'SKIPPED', { details: { note: 'no capability' } })],
      'no successful check',
    ],
  ])('fail with %s', (_what, checks, reason) => {
    const verdict = judge('some-scenario', checks);
    expect(verdict.ok).toBe(false);
    expect(verdict.skipped).toBeUndefined();
    expect(verdict.reason).toContain(reason);
  });

  it("set aside the suite's whole-scenario skip, with its reason", () => {
    const verdict = judge('tasks-status-notifications', [
      check('tasks-status-notifications', 'SKIPPED', { errorMessage: 'Skipped: pending a rewrite' }),
    ]);
    expect(verdict).toMatchObject({ ok: false, skipped: expect.stringContaining('pending a rewrite') });
  });

  it('rerun next-suite scenarios at 2026-07-28 only when they list it beside older revisions', () => {
    const scenarios = [
      { name: 'tools-list', revisions: ['2025-06-18', '2025-11-25', '2026-07-28'] },
      { name: 'caching', revisions: ['2026-07-28'] },
      { name: 'tasks-lifecycle', revisions: ['extension'] },
      { name: 'ping', revisions: ['2025-06-18', '2025-11-25'] },
    ];
    expect(serverRunsOf({ key: 'next' }, scenarios).map((r: { id: string }) => r.id)).toEqual([
      'server:tools-list',
      'server:tools-list@2026-07-28',
      'server:caching',
      'server:tasks-lifecycle',
      'server:ping',
    ]);
    expect(serverRunsOf({ key: '0.1.16' }, scenarios).map((r: { id: string }) => r.id)).toEqual([
      'server:tools-list',
      'server:caching',
      'server:tasks-lifecycle',
      'server:ping',
    ]);
  });
});
