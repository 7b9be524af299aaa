/**
 * The revision table: which revisions exist, their order and era, and the feature gates the
 * client consults (each checked against the spec's changelog, DIGEST.md §1 and §7).
 */
import { describe, expect, it } from 'vitest';
import {
  type Feature,
  LATEST_LEGACY_REVISION,
  LATEST_MODERN_REVISION,
  LEGACY_REVISIONS,
  MODERN_REVISIONS,
  SUPPORTED_REVISIONS,
  eraOf,
  hasFeature,
  isSupportedRevision,
} from '../src/protocol/revisions.js';
import {
  SCHEMA_REVISIONS,
  definitionForMethod,
  hasSchema,
  missingSchemaMessage,
  schemaDefinition,
} from './kit/spec-schemas.js';

const ALL = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;

describe('the revision list', () => {
  it('holds every published revision, newest first, with no duplicates', () => {
    expect([...SUPPORTED_REVISIONS]).toEqual([...ALL].reverse());
    expect(new Set(SUPPORTED_REVISIONS).size).toBe(SUPPORTED_REVISIONS.length);
  });

  it('is ordered by plain string comparison because revisions are ISO dates', () => {
    const sorted = [...SUPPORTED_REVISIONS].sort().reverse();
    expect(sorted).toEqual([...SUPPORTED_REVISIONS]);
    for (const revision of SUPPORTED_REVISIONS) expect(revision).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('splits into the modern and legacy lists, newest first, covering all and overlapping none', () => {
    expect([...MODERN_REVISIONS, ...LEGACY_REVISIONS]).toEqual([...SUPPORTED_REVISIONS]);
    expect([...LEGACY_REVISIONS]).toEqual(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
    expect([...MODERN_REVISIONS]).toEqual(['2026-07-28']);
    expect(LATEST_MODERN_REVISION).toBe(MODERN_REVISIONS[0]);
    expect(LATEST_LEGACY_REVISION).toBe(LEGACY_REVISIONS[0]);
  });

  it('is the list the schema kit checks', () => {
    expect([...SCHEMA_REVISIONS].sort()).toEqual([...SUPPORTED_REVISIONS].sort());
  });
});

describe('isSupportedRevision', () => {
  it.each(ALL)('accepts %s', (revision) => expect(isSupportedRevision(revision)).toBe(true));
  it.each([['2025-01-01'], ['draft'], [''], ['2026-07-28 '], [20260728], [null], [undefined], [['2026-07-28']]])(
    'rejects %j',
    (value) => {
      expect(isSupportedRevision(value)).toBe(false);
    },
  );
});

describe('eraOf', () => {
  it.each(LEGACY_REVISIONS.map((r) => [r]))('%s is legacy', (revision) => expect(eraOf(revision)).toBe('legacy'));
  it.each(MODERN_REVISIONS.map((r) => [r]))('%s is modern', (revision) => expect(eraOf(revision)).toBe('modern'));
  it('puts unknown revisions by date: anything from 2026-07-28 on is modern', () => {
    expect(eraOf('2024-01-01')).toBe('legacy');
    expect(eraOf('2026-07-27')).toBe('legacy');
    expect(eraOf('2026-07-28')).toBe('modern');
    expect(eraOf('2027-03-01')).toBe('modern');
  });
});

/** For each feature, the revisions (of ALL) in which it exists. */
const EXPECTED: Record<Feature, readonly string[]> = {
  batching: ['2025-03-26'],
  audioContent: ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
  toolAnnotations: ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
  completionsCapability: ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
  progressMessage: ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
  structuredOutput: ['2025-06-18', '2025-11-25', '2026-07-28'],
  elicitation: ['2025-06-18', '2025-11-25', '2026-07-28'],
  resourceLinks: ['2025-06-18', '2025-11-25', '2026-07-28'],
  titles: ['2025-06-18', '2025-11-25', '2026-07-28'],
  protocolVersionHeader: ['2025-06-18', '2025-11-25', '2026-07-28'],
  icons: ['2025-11-25', '2026-07-28'],
  urlElicitation: ['2025-11-25', '2026-07-28'],
  samplingTools: ['2025-11-25', '2026-07-28'],
  tasks: ['2025-11-25'],
  ssePolling: ['2025-11-25'],
  ping: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'],
  loggingSetLevel: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'],
  resourceSubscribe: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'],
  serverRequests: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'],
  resultType: ['2026-07-28'],
  inputRequired: ['2026-07-28'],
  subscriptionsListen: ['2026-07-28'],
  caching: ['2026-07-28'],
  mcpHeaders: ['2026-07-28'],
};

describe('hasFeature', () => {
  it.each(Object.entries(EXPECTED) as Array<[Feature, readonly string[]]>)(
    '%s exists in exactly %j',
    (feature, revisions) => {
      expect(ALL.filter((revision) => hasFeature(revision, feature))).toEqual(revisions);
    },
  );

  it('names the headline gates explicitly', () => {
    expect(hasFeature('2025-03-26', 'batching')).toBe(true);
    expect(hasFeature('2025-06-18', 'batching')).toBe(false);
    expect(hasFeature('2025-11-25', 'ping')).toBe(true);
    expect(hasFeature('2026-07-28', 'ping')).toBe(false);
    expect(hasFeature('2025-03-26', 'structuredOutput')).toBe(false);
    expect(hasFeature('2025-06-18', 'structuredOutput')).toBe(true);
    expect(hasFeature('2026-07-28', 'serverRequests')).toBe(false);
    expect(hasFeature('2025-11-25', 'inputRequired')).toBe(false);
  });

  it('treats an unknown later revision like the newest: removed features stay removed', () => {
    expect(hasFeature('2027-01-01', 'ping')).toBe(false);
    expect(hasFeature('2027-01-01', 'resultType')).toBe(true);
    expect(hasFeature('2027-01-01', 'batching')).toBe(false);
  });

  it('gives nothing to a revision older than the first', () => {
    for (const feature of Object.keys(EXPECTED) as Feature[]) expect(hasFeature('2024-01-01', feature)).toBe(false);
  });
});

/**
 * Where a gate shows in the official schema, the schema must agree with the table. Each probe
 * reads one fact of a revision's schema.json.
 */
const SCHEMA_PROBES: Partial<Record<Feature, (revision: string) => boolean>> = {
  batching: (r) => schemaDefinition(r, 'JSONRPCBatchRequest') !== undefined,
  audioContent: (r) => schemaDefinition(r, 'AudioContent') !== undefined,
  toolAnnotations: (r) => schemaDefinition(r, 'ToolAnnotations') !== undefined,
  progressMessage: (r) =>
    hasProperty(r, 'ProgressNotificationParams', 'message') || hasNestedParam(r, 'ProgressNotification', 'message'),
  structuredOutput: (r) => hasProperty(r, 'CallToolResult', 'structuredContent'),
  resourceLinks: (r) => schemaDefinition(r, 'ResourceLink') !== undefined,
  icons: (r) => schemaDefinition(r, 'Icon') !== undefined,
  tasks: (r) => definitionForMethod(r, 'client', 'request', 'tasks/get') !== undefined,
  ping: (r) => definitionForMethod(r, 'client', 'request', 'ping') !== undefined,
  loggingSetLevel: (r) => definitionForMethod(r, 'client', 'request', 'logging/setLevel') !== undefined,
  resourceSubscribe: (r) => definitionForMethod(r, 'client', 'request', 'resources/subscribe') !== undefined,
  serverRequests: (r) => definitionForMethod(r, 'server', 'request', 'roots/list') !== undefined,
  resultType: (r) => ((schemaDefinition(r, 'Result')?.required as string[] | undefined) ?? []).includes('resultType'),
  inputRequired: (r) => schemaDefinition(r, 'InputRequiredResult') !== undefined,
  subscriptionsListen: (r) => definitionForMethod(r, 'client', 'request', 'subscriptions/listen') !== undefined,
  caching: (r) => hasProperty(r, 'ListToolsResult', 'ttlMs'),
};

function hasProperty(revision: string, definition: string, property: string): boolean {
  const properties = schemaDefinition(revision, definition)?.properties as Record<string, unknown> | undefined;
  return properties !== undefined && property in properties;
}

/** Draft-07 revisions inline params: `<definition>.properties.params.properties.<property>`. */
function hasNestedParam(revision: string, definition: string, property: string): boolean {
  const params = (
    schemaDefinition(revision, definition)?.properties as
      Record<string, { properties?: Record<string, unknown> }> | undefined
  )?.params;
  return params?.properties !== undefined && property in params.properties;
}

describe('feature gates agree with the official schemas', () => {
  for (const revision of ALL) {
    it.skipIf(!hasSchema(revision))(hasSchema(revision) ? `${revision}` : missingSchemaMessage(revision), () => {
      for (const [feature, probe] of Object.entries(SCHEMA_PROBES) as Array<[Feature, (r: string) => boolean]>) {
        expect(hasFeature(revision, feature), `${feature} in ${revision}`).toBe(probe(revision));
      }
    });
  }
});
