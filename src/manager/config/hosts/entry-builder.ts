/**
 * The builder one host entry is translated through: it takes the host's fields one by one,
 * translates their variables ({@link translateText}), and collects what the result needs (the
 * environment variables it names), what makes it unusable (problems) and what was left out
 * (notes). Every field of the host entry is either taken, ignored on purpose, or noted: nothing is
 * dropped silently.
 */
import { translateText, type VariableContext, type VariableSyntax } from './host-variables.js';

/** What translating one host entry gave. */
export interface TranslatedEntry {
  /** A server entry in mcpwire's shape (as a config file holds it), variables as `${VAR}`. */
  entry: Record<string, unknown>;
  /** Why mcpwire cannot run it as the host would (empty: usable). */
  problems: string[];
  /** Host fields not taken, and translations worth knowing. */
  notes: string[];
  /** Environment variables the entry refers to. */
  variables: string[];
}

/** Collects one translated entry; see the file comment. */
export class EntryBuilder {
  readonly entry: Record<string, unknown> = {};
  readonly problems: string[] = [];
  readonly notes: string[] = [];
  private readonly variables = new Set<string>();
  private readonly seen = new Set<string>();

  constructor(
    readonly raw: Record<string, unknown>,
    private readonly syntax: VariableSyntax,
    private readonly context: VariableContext,
  ) {}

  /** The raw value of `key`, marking it as handled. */
  take(key: string): unknown {
    this.seen.add(key);
    return this.raw[key];
  }

  /** Marks `keys` as handled without using them (fields that mean nothing to a client, e.g. a description). */
  quiet(...keys: string[]): void {
    for (const key of keys) this.seen.add(key);
  }

  /** A string in mcpwire's syntax (undefined for a non-string: then the schema check names the field). */
  text(value: unknown, field: string): unknown {
    if (typeof value !== 'string') return value;
    const translated = translateText(value, this.syntax, this.context);
    for (const name of translated.variables) this.variables.add(name);
    for (const { reference, reason } of translated.refused)
      this.problems.push(`${field}: ${reference} is ${reason}; mcpwire cannot supply it`);
    return translated.text;
  }

  /** An array of strings translated item by item (anything else as it is). */
  list(value: unknown, field: string): unknown {
    return Array.isArray(value) ? value.map((item, i) => this.text(item, `${field}[${i}]`)) : value;
  }

  /** A map of strings translated value by value (anything else as it is). */
  map(value: unknown, field: string): unknown {
    if (!isObject(value)) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.text(v, `${field}.${k}`)]));
  }

  /** Sets `field` of the result when `value` is defined. */
  set(field: string, value: unknown): void {
    if (value !== undefined) this.entry[field] = value;
  }

  /** A reference to the environment variable `name`, as mcpwire writes it. */
  reference(name: string): string {
    this.variables.add(name);
    return `\${${name}}`;
  }

  /** Copies each of `keys` (strings, string lists and string maps translated) under the same name. */
  copy(...keys: string[]): void {
    for (const key of keys) {
      const value = this.take(key);
      this.set(
        key,
        Array.isArray(value) ? this.list(value, key) : isObject(value) ? this.map(value, key) : this.text(value, key),
      );
    }
  }

  /** Seconds (a host's unit) as milliseconds, or the value as it is when it is not a number. */
  seconds(value: unknown): unknown {
    return typeof value === 'number' ? Math.round(value * 1000) : value;
  }

  /** Records that mcpwire cannot honour the entry as the host would, and why. */
  problem(reason: string): void {
    this.problems.push(reason);
  }

  /** Records something about the translation the user should know. */
  note(text: string): void {
    this.notes.push(text);
  }

  /** The result; every key of the raw entry not taken or quiet becomes a note. */
  finish(): TranslatedEntry {
    const ignored = Object.keys(this.raw).filter((key) => !this.seen.has(key));
    if (ignored.length)
      this.notes.push(`not used by mcpwire (ignored): ${ignored.map((key) => `"${key}"`).join(', ')}`);
    return { entry: this.entry, problems: this.problems, notes: this.notes, variables: [...this.variables] };
  }
}

/** A plain object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
