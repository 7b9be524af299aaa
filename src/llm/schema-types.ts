/**
 * The words of schema cleaning that every schema file shares: which provider a schema is cleaned
 * for and what one edit looks like. Types only, so the profile and its helpers import it without
 * importing each other.
 */

/** The provider whose function-parameter rules a schema is cleaned for. */
export type SchemaProfile = 'anthropic' | 'openai' | 'gemini';

/** One edit `cleanSchema` (schema-profiles.ts) made. */
export interface SchemaChange {
  /** JSON pointer to the keyword in the cleaned schema, e.g. `/properties/n/exclusiveMinimum`. */
  path: string;
  action: 'removed' | 'inlined' | 'rewritten';
  keyword: string;
  /** What became of it, in words. */
  detail?: string;
}
