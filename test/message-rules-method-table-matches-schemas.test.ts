/**
 * The linter's table of methods per revision (src/inspect/message-rules/method-table.ts) holds
 * exactly the members of each official schema's ClientRequest, ClientNotification, ServerRequest
 * and ServerNotification unions.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { judgeMethod, methodsOf, revisionsWithMethodTable } from '../src/inspect/message-rules/method-table.js';
import { SUPPORTED_REVISIONS } from '../src/protocol/revisions.js';

const SCHEMAS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../shared/mcp-spec');

interface Definition {
  $ref?: string;
  anyOf?: Definition[];
  properties?: { method?: { const?: string } };
}
type Defs = Record<string, Definition>;

/** The method constants of one union of a schema (a union that is one inline definition counts as itself). */
function unionMethods(defs: Defs, union: string): string[] {
  const node = defs[union];
  if (!node) return [];
  const members: Definition[] = node.anyOf ?? [node];
  return members
    .map((m) => (m.$ref ? defs[m.$ref.split('/').pop()!] : m)?.properties?.method?.const)
    .filter((m): m is string => typeof m === 'string')
    .sort();
}

it('knows every revision mcpwire speaks', () => {
  expect(revisionsWithMethodTable()).toEqual([...SUPPORTED_REVISIONS].sort());
});

describe('the method table matches the official schema', () => {
  for (const revision of revisionsWithMethodTable()) {
    const file = path.join(SCHEMAS, revision, 'schema.json');
    it.skipIf(!existsSync(file))(`${revision}${existsSync(file) ? '' : ` (skipped: ${file} does not exist)`}`, () => {
      const schema = JSON.parse(readFileSync(file, 'utf8')) as { $defs?: Defs; definitions?: Defs };
      const defs = (schema.$defs ?? schema.definitions)!;
      const table = methodsOf(revision)!;
      expect([...table.client.request].sort()).toEqual(unionMethods(defs, 'ClientRequest'));
      expect([...table.client.notification].sort()).toEqual(unionMethods(defs, 'ClientNotification'));
      expect([...table.server.request].sort()).toEqual(unionMethods(defs, 'ServerRequest'));
      expect([...table.server.notification].sort()).toEqual(unionMethods(defs, 'ServerNotification'));
    });
  }
});

it('judges direction and kind', () => {
  expect(judgeMethod('2025-06-18', 'server', 'request', 'elicitation/create')).toBe('ok');
  expect(judgeMethod('2025-03-26', 'server', 'request', 'elicitation/create')).toBe('not-in-revision');
  expect(judgeMethod('2025-11-25', 'client', 'request', 'sampling/createMessage')).toBe('wrong-direction');
  expect(judgeMethod('2025-11-25', 'client', 'request', 'notifications/initialized')).toBe('wrong-kind');
  expect(judgeMethod('2026-07-28', 'client', 'request', 'initialize')).toBe('not-in-revision');
  expect(judgeMethod('2099-01-01', 'client', 'request', 'anything')).toBe('ok');
});
