/**
 * One rule for a broken config, whatever the command: every command that reads the config files
 * exits 2 (`CONFIG_INVALID`) when one of them has an error, naming each error (file:line:column).
 * Listing commands (`servers`, `config show`, `config check`) still print what they could load;
 * a command aimed at one server (`--server NAME`) starts nothing, since a broken file may be the
 * one that would have overridden the definition it is about to run.
 */
import { McpError } from '../protocol/errors.js';
import { EXIT } from './exit-codes.js';
import type { Outcome } from './outcome.js';

/** The error message for `errors` (each already names its file). */
export function configErrorsMessage(errors: readonly string[]): string {
  return `${errors.length} config error(s): ${errors.join('; ')}`;
}

/** `1 config error`, `3 config errors`. */
export function configErrorCount(count: number): string {
  return `${count} config error${count === 1 ? '' : 's'}`;
}

/**
 * `outcome` as it is when `errors` is empty; otherwise the same output with exit code 2 and a
 * `CONFIG_INVALID` error whose `result` is what the command would have returned (`--json`).
 * `listed`: the outcome's text already shows each error, so stderr only counts them (each error
 * is printed once); otherwise stderr names them all.
 */
export function withConfigErrors(outcome: Outcome, errors: readonly string[], listed = false): Outcome {
  if (errors.length === 0) return outcome;
  return {
    ...outcome,
    exitCode: EXIT.config,
    error: { code: 'CONFIG_INVALID', message: configErrorsMessage(errors), errors: [...errors], result: outcome.json },
    ...(listed ? { notice: `${configErrorCount(errors.length)} (each listed above)` } : {}),
  };
}

/** Throws `CONFIG_INVALID` when the config that defines `server` has errors. */
export function assertConfigUsable(server: string, errors: readonly string[]): void {
  if (errors.length === 0) return;
  throw new McpError(
    'CONFIG_INVALID',
    `not starting server "${server}": ${configErrorsMessage(errors)} (mcpwire config check lists them)`,
  );
}
