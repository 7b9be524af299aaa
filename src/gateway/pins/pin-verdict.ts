/**
 * How a tool's definition stands against its pin, and the one sentence that says why a tool is
 * withheld: the same words in a refused call as in `observe`'s list of withheld tools.
 */
import type { Tool } from '../../protocol/types.js';
import type { PinnedDefinition } from './pin-file.js';

/**
 * How a definition stands against the pin of its gateway name. Serve a tool only when `approved`:
 * - `new`: there is no pin for the name (the gateway never listed it; `observe` first);
 * - `unapproved`: it was first seen without trust on first use and nothing is approved yet;
 * - `approved`: it is the approved definition;
 * - `changed`: it differs from the approved one in `fields` (e.g. `['description']`).
 */
export type PinVerdict =
  | { state: 'new' }
  | { state: 'unapproved' }
  | { state: 'approved' }
  | {
      state: 'changed';
      approved: PinnedDefinition;
      now: { fingerprint: string; definition: Tool };
      fields: string[];
    };

/**
 * Why the tool `name` with `verdict` is withheld, naming what to run (`mcpwire gateway pins`,
 * `mcpwire gateway approve NAME`); undefined when it is `approved`.
 */
export function pinRefusal(name: string, verdict: PinVerdict): string | undefined {
  switch (verdict.state) {
    case 'approved':
      return undefined;
    case 'new':
      return `tool "${name}" is not pinned: the gateway has not listed it yet`;
    case 'unapproved':
      return `tool "${name}" is new and not approved yet; run: mcpwire gateway approve ${name}`;
    case 'changed': {
      const fields = verdict.fields.length ? ` (${verdict.fields.join(', ')})` : '';
      return `tool "${name}" changed since it was approved${fields}; see mcpwire gateway pins, then run: mcpwire gateway approve ${name}`;
    }
  }
}
