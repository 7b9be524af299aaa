/**
 * The `gateway` section of a config file, for `mcpwire gateway`: beside `mcpServers`, in the
 * last `--config` file that has one (JSON or JSONC). Its keys are `createGateway`'s — `policies`,
 * `virtualServers`, `rateLimit`, `pins`, `mode`, `separator`, `instructions`, `tokenExchange` —
 * plus `auth` (`{ issuer, jwksUrl?, audience?, resource?, scopes? }`: JWT bearer tokens, checked
 * against the issuer's keys) and `state` (PostgreSQL or Redis shared by several gateway processes:
 * `gateway-state.ts`). A broken file or section is a `CONFIG_INVALID` error naming the file and key.
 */
import { readFileSync } from 'node:fs';
import { McpError } from '../protocol/errors.js';
import { stripJsonComments } from '../manager/config/text-formats.js';
import type { GatewayOptions } from '../gateway/gateway-options.js';
import type { GatewayCardOptions } from '../gateway/gateway-http.js';
import { isServerCardName } from '../protocol/extensions/server-card.js';
import { checkGatewayState, type GatewayStateConfig } from './gateway-state.js';

/** The gateway's bearer-token check. */
export interface GatewayAuthConfig {
  issuer: string;
  jwksUrl?: string;
  audience?: string;
  /** The canonical URL clients use (default: the listening URL). */
  resource?: string;
  /** Scopes every request needs. */
  scopes?: string[];
}

export type GatewayFileOptions = Omit<GatewayOptions, 'manager' | 'logger' | 'state'> & {
  auth?: GatewayAuthConfig;
  card?: GatewayCardOptions;
  state?: GatewayStateConfig;
};

const KEYS = new Set([
  'policies',
  'virtualServers',
  'rateLimit',
  'pins',
  'mode',
  'separator',
  'instructions',
  'tokenExchange',
  'auth',
  'card',
  'state',
]);
const AUTH_KEYS = new Set(['issuer', 'jwksUrl', 'audience', 'resource', 'scopes']);

/** The `gateway` section of the last of `files` that has one, or `{}`. */
export function gatewayFileOptions(files: readonly string[]): { options: GatewayFileOptions; file?: string } {
  for (const file of [...files].reverse()) {
    let document: unknown;
    try {
      document = JSON.parse(stripJsonComments(readFileSync(file, 'utf8')));
    } catch (error) {
      throw new McpError('CONFIG_INVALID', `${file}: not JSON: ${(error as Error).message}`, { cause: error });
    }
    const section = (document as { gateway?: unknown } | null)?.gateway;
    if (section === undefined) continue;
    if (section === null || typeof section !== 'object' || Array.isArray(section))
      throw new McpError('CONFIG_INVALID', `${file}: "gateway" must be an object`);
    for (const key of Object.keys(section))
      if (!KEYS.has(key)) throw new McpError('CONFIG_INVALID', `${file}: unknown key "gateway.${key}"`);
    const auth = (section as { auth?: unknown }).auth;
    if (auth !== undefined) {
      if (auth === null || typeof auth !== 'object')
        throw new McpError('CONFIG_INVALID', `${file}: "gateway.auth" must be an object`);
      for (const key of Object.keys(auth))
        if (!AUTH_KEYS.has(key)) throw new McpError('CONFIG_INVALID', `${file}: unknown key "gateway.auth.${key}"`);
      if (typeof (auth as GatewayAuthConfig).issuer !== 'string')
        throw new McpError('CONFIG_INVALID', `${file}: "gateway.auth.issuer" must be the token issuer's URL`);
    }
    const card = (section as { card?: unknown }).card;
    if (card !== undefined) checkCard(card, file);
    const state = (section as { state?: unknown }).state;
    if (state !== undefined) checkGatewayState(state, file);
    return { options: section, file };
  }
  return { options: {} };
}

const CARD_KEYS = new Set(['name', 'description', 'publicUrl']);

/** `gateway.card`: `{ name: reverse-DNS, description: 1–100 characters, publicUrl?: URL }`. */
function checkCard(card: unknown, file: string): void {
  if (card === null || typeof card !== 'object' || Array.isArray(card))
    throw new McpError('CONFIG_INVALID', `${file}: "gateway.card" must be an object`);
  for (const key of Object.keys(card))
    if (!CARD_KEYS.has(key)) throw new McpError('CONFIG_INVALID', `${file}: unknown key "gateway.card.${key}"`);
  const { name, description, publicUrl } = card as Partial<Record<string, unknown>>;
  if (typeof name !== 'string' || !isServerCardName(name))
    throw new McpError(
      'CONFIG_INVALID',
      `${file}: "gateway.card.name" must be reverse-DNS with one slash (com.example/gateway)`,
    );
  if (typeof description !== 'string' || description.length < 1 || description.length > 100)
    throw new McpError('CONFIG_INVALID', `${file}: "gateway.card.description" must be 1 to 100 characters`);
  if (publicUrl !== undefined && (typeof publicUrl !== 'string' || !URL.canParse(publicUrl)))
    throw new McpError('CONFIG_INVALID', `${file}: "gateway.card.publicUrl" must be a URL`);
}
