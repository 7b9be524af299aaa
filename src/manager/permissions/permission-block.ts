/**
 * The `permissions` block a config file may carry: its shape checked ({@link parsePermissions},
 * called by the config loader) and kept with its provenance; `permission-rules.ts` evaluates it.
 */
import { ConfigError, type McpError } from '../../protocol/errors.js';
import type { Provenance } from '../servers/managed-server.js';

/** Permission rules of one file, as written (evaluated by the permission layer). */
export interface PermissionBlock {
  file: string;
  scope: Provenance['scope'];
  allow: string[];
  deny: string[];
  ask: string[];
  defaultMode?: 'allow' | 'ask' | 'deny';
}

/**
 * Checks the `permissions` value of one file. Absent ⇒ no block. Not an object ⇒ no block and a
 * `CONFIG_INVALID` error naming the file. A list that is not all strings, or a `defaultMode` other
 * than `allow`/`ask`/`deny`, is an error naming `permissions.<key>` and is left out of the block;
 * the rest of the block is kept. Never throws.
 */
export function parsePermissions(
  value: unknown,
  file: string,
  scope: Provenance['scope'],
): { block?: PermissionBlock; errors: McpError[] } {
  const errors: McpError[] = [];
  if (value === undefined) return { errors };
  const fail = (message: string) => errors.push(new ConfigError(message, { file }));
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    fail('"permissions" must be an object with allow / deny / ask lists');
    return { errors };
  }
  const record = value as Record<string, unknown>;
  const list = (key: 'allow' | 'deny' | 'ask'): string[] => {
    const items = record[key];
    if (items === undefined) return [];
    if (Array.isArray(items) && items.every((item) => typeof item === 'string')) return items;
    fail(`permissions.${key} must be a list of strings`);
    return [];
  };
  const block: PermissionBlock = { file, scope, allow: list('allow'), deny: list('deny'), ask: list('ask') };
  const mode = record.defaultMode;
  if (mode === 'allow' || mode === 'ask' || mode === 'deny') block.defaultMode = mode;
  else if (mode !== undefined) fail('permissions.defaultMode must be "allow", "ask" or "deny"');
  return { block, errors };
}
