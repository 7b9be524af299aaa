/**
 * The published MCP revisions, the era of each, and feature gates by revision.
 * Revisions are ISO dates, so string comparison orders them.
 */

/** Every revision mcpwire speaks, newest first. */
export const SUPPORTED_REVISIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** A revision mcpwire speaks. */
export type ProtocolRevision = (typeof SUPPORTED_REVISIONS)[number];

/** The revisions with the stateless per-request envelope (`server/discover`, `_meta` on every request). */
export const MODERN_REVISIONS = ['2026-07-28'] as const satisfies readonly ProtocolRevision[];

/** The revisions with the `initialize` handshake, newest first. */
export const LEGACY_REVISIONS = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
] as const satisfies readonly ProtocolRevision[];

/** `legacy`: `initialize` handshake (≤ 2025-11-25). `modern`: stateless per-request metadata (≥ 2026-07-28). */
export type Era = 'legacy' | 'modern';

/** The newest revision of each era: what the client offers first. */
export const LATEST_MODERN_REVISION: ProtocolRevision = '2026-07-28';
export const LATEST_LEGACY_REVISION: ProtocolRevision = '2025-11-25';

/** True when mcpwire speaks `revision`. */
export function isSupportedRevision(revision: unknown): revision is ProtocolRevision {
  return typeof revision === 'string' && (SUPPORTED_REVISIONS as readonly string[]).includes(revision);
}

/**
 * The era of a revision: a date (`YYYY-MM-DD`) from 2026-07-28 on is modern; anything else,
 * including a string that is no date at all, is legacy (the `initialize` negotiation then
 * answers it with a legacy revision). A string compare alone would call `"latest"` modern.
 */
export function eraOf(revision: string): Era {
  return REVISION_SHAPE.test(revision) && revision >= '2026-07-28' ? 'modern' : 'legacy';
}

const REVISION_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/** Features that exist only from (or, for removed ones, only in) certain revisions. */
export type Feature =
  | 'batching'
  | 'audioContent'
  | 'toolAnnotations'
  | 'completionsCapability'
  | 'progressMessage'
  | 'structuredOutput'
  | 'elicitation'
  | 'resourceLinks'
  | 'titles'
  | 'protocolVersionHeader'
  | 'icons'
  | 'urlElicitation'
  | 'samplingTools'
  | 'tasks'
  | 'ssePolling'
  | 'ping'
  | 'loggingSetLevel'
  | 'resourceSubscribe'
  | 'serverRequests'
  | 'resultType'
  | 'inputRequired'
  | 'subscriptionsListen'
  | 'caching'
  | 'mcpHeaders';

/** Inclusive revision ranges in which each feature exists. `until` absent = still present. */
const FEATURE_RANGES: Record<Feature, { since: string; until?: string }> = {
  batching: { since: '2025-03-26', until: '2025-03-26' },
  audioContent: { since: '2025-03-26' },
  toolAnnotations: { since: '2025-03-26' },
  completionsCapability: { since: '2025-03-26' },
  progressMessage: { since: '2025-03-26' },
  structuredOutput: { since: '2025-06-18' },
  elicitation: { since: '2025-06-18' },
  resourceLinks: { since: '2025-06-18' },
  titles: { since: '2025-06-18' },
  protocolVersionHeader: { since: '2025-06-18' },
  icons: { since: '2025-11-25' },
  urlElicitation: { since: '2025-11-25' },
  samplingTools: { since: '2025-11-25' },
  tasks: { since: '2025-11-25', until: '2025-11-25' },
  ssePolling: { since: '2025-11-25', until: '2025-11-25' },
  ping: { since: '2024-11-05', until: '2025-11-25' },
  loggingSetLevel: { since: '2024-11-05', until: '2025-11-25' },
  resourceSubscribe: { since: '2024-11-05', until: '2025-11-25' },
  serverRequests: { since: '2024-11-05', until: '2025-11-25' },
  resultType: { since: '2026-07-28' },
  inputRequired: { since: '2026-07-28' },
  subscriptionsListen: { since: '2026-07-28' },
  caching: { since: '2026-07-28' },
  mcpHeaders: { since: '2026-07-28' },
};

/** True when `feature` exists in `revision`. */
export function hasFeature(revision: string, feature: Feature): boolean {
  const range = FEATURE_RANGES[feature];
  return revision >= range.since && (range.until === undefined || revision <= range.until);
}
