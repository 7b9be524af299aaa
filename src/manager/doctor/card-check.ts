/**
 * The `card` check of a URL server: its MCP Server Card (SEP-2127, draft), read without
 * credentials (a card is public) from `<url>/server-card`, else from the locations of earlier
 * drafts (`/.well-known/mcp.json`, `/.well-known/mcp-server-card`, shown as "legacy"). It prints
 * what the card says and, once connected, compares it with `serverInfo` and the revision. A card
 * is advisory: a mismatch or an invalid card warns, never fails; no card is an informational line.
 */
import {
  compareServerCard,
  fetchCardDocument,
  fetchServerCard,
  type FetchedServerCard,
} from '../../client/server-card.js';
import { errorMessage } from '../../protocol/errors.js';
import { LEGACY_SERVER_CARD_PATHS, type ServerCard } from '../../protocol/extensions/server-card.js';
import { redactUrl } from '../../util/redact.js';
import type { Diagnosis } from './diagnosis.js';
import type { CheckOutcome } from './run-check.js';

/** The longest the card's reads take together (a card is optional: it must not slow the doctor down). */
const CARD_TIMEOUT_MS = 5_000;

/** The outcome of the `card` check of `d`'s server (after its session checks). */
export async function checkServerCard(d: Diagnosis, signal: AbortSignal): Promise<CheckOutcome> {
  const endpoint = new URL(d.spec.url!);
  const timeoutMs = Math.min(d.timeoutMs, CARD_TIMEOUT_MS);
  const found = await readCard(endpoint, signal, timeoutMs);
  if ('missing' in found) return { verdict: 'skip', detail: `no server card published (optional; ${found.missing})` };
  const { fetched, legacy } = found;
  const card = fetched.card as Partial<ServerCard> & { serverInfo?: Partial<ServerCard> };
  // Earlier drafts nested the identity under `serverInfo`.
  const name = card.name ?? card.serverInfo?.name;
  const version = card.version ?? card.serverInfo?.version;
  const description = card.description ?? card.serverInfo?.description;
  const said = [name ?? '(no name)', version ?? '(no version)'].join(' ');
  const detail = `${said}${description ? `: ${JSON.stringify(description)}` : ''} (${legacy ? 'legacy location ' : ''}${redactUrl(fetched.url)})`;
  const client = d.connected?.client;
  const mismatches =
    client?.serverInfo === undefined
      ? []
      : compareServerCard(
          {
            ...card,
            ...(name !== undefined && { name }),
            ...(version !== undefined && { version }),
            ...(description !== undefined && { description }),
          },
          client.serverInfo,
          client.protocolVersion,
        );
  const problems = legacy ? [] : fetched.problems;
  if (mismatches.length === 0 && problems.length === 0 && !legacy) return { verdict: 'ok', detail };
  const notes = [
    ...mismatches.map((line) => `differs from the server: ${line}`),
    ...problems.map((line) => `invalid: ${line}`),
  ];
  if (legacy) notes.push(`published where an earlier draft put it; serve it at ${cardPath(endpoint)}`);
  return {
    verdict: 'warn',
    detail,
    fix: `${notes.join('; ')} (a card is advisory: the server's own answers win)`,
  };
}

/** The card at `<endpoint>/server-card`, else at a legacy location, else why none was found. */
async function readCard(
  endpoint: URL,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<{ fetched: FetchedServerCard; legacy: boolean } | { missing: string }> {
  const options = { signal, timeoutMs };
  let first: string;
  try {
    return { fetched: await fetchServerCard(endpoint, options), legacy: false };
  } catch (error) {
    signal.throwIfAborted();
    first = errorMessage(error);
  }
  for (const path of LEGACY_SERVER_CARD_PATHS) {
    try {
      return { fetched: await fetchCardDocument(new URL(path, endpoint).toString(), options), legacy: true };
    } catch {
      signal.throwIfAborted();
    }
  }
  return { missing: first };
}

function cardPath(endpoint: URL): string {
  return `${endpoint.pathname.replace(/\/$/, '')}/server-card`;
}
