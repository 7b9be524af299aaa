/**
 * Checks shared by the policy and virtual-server config: each throws a `ConfigError`
 * (`CONFIG_INVALID`, the config loader's code) whose message leads with `where` (the config file
 * or the option's label) and names the entry and field at fault.
 */
import { ConfigError } from '../../protocol/errors.js';

/** Where in the config a value sits: the file or label, and the path to the entry (`policies[1] ("ops")`). */
export interface ConfigSite {
  readonly where: string;
  readonly entry: string;
}

/** The error for `problem` at `site`, on `field` when given. */
export function configProblem(site: ConfigSite, problem: string, field?: string): ConfigError {
  const path = field === undefined ? site.entry : `${site.entry}.${field}`;
  return new ConfigError(`${path}: ${problem}`, { file: site.where, field: path });
}

/** Whether `value` is a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Throws for the first key of `entry` not in `known`. */
export function checkKeys(site: ConfigSite, entry: Record<string, unknown>, known: ReadonlySet<string>): void {
  for (const key of Object.keys(entry))
    if (!known.has(key))
      throw configProblem(site, `unknown key "${key}" (known: ${[...known].map((k) => `"${k}"`).join(', ')})`);
}

/** A non-empty array of non-empty strings, or undefined when absent. */
export function patternList(site: ConfigSite, entry: Record<string, unknown>, field: string): string[] | undefined {
  const value = entry[field];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || !value.every((item) => typeof item === 'string' && item !== ''))
    throw configProblem(site, 'must be a non-empty array of non-empty strings', field);
  return [...(value as string[])];
}

/** A non-empty string or a non-empty array of them (as an array), or undefined when absent. */
export function oneOrMany(site: ConfigSite, entry: Record<string, unknown>, field: string): string[] | undefined {
  const value = entry[field];
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value !== '') return [value];
  if (typeof value === 'string' || !Array.isArray(value))
    throw configProblem(site, 'must be a non-empty string or a non-empty array of them', field);
  return patternList(site, entry, field);
}

/** A non-empty string, or undefined when absent. */
export function optionalText(site: ConfigSite, entry: Record<string, unknown>, field: string): string | undefined {
  const value = entry[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw configProblem(site, 'must be a non-empty string', field);
  return value;
}

/** Checks a gateway name separator (non-empty string). */
export function checkSeparator(separator: unknown, where: string): string {
  if (typeof separator !== 'string' || separator === '')
    throw new ConfigError('the separator must be a non-empty string', { file: where, field: 'separator' });
  return separator;
}
