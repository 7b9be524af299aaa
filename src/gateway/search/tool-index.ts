/**
 * The ranked tool search of the gateway's search mode (WP-7): BM25F over a catalogue's names,
 * titles, descriptions and parameters, no dependency. Built once per catalogue (the gateway
 * rebuilds it on every change, so building is one pass over the text and no more), queried many
 * times; every score a query can reach is computed at build time.
 */
import { McpError } from '../../protocol/errors.js';
import type { JsonSchema } from '../../protocol/types.js';
import { tokenize } from './tokenize.js';

/** One tool as the index sees it: the name the gateway serves and the upstream server it comes from. */
export interface SearchableTool {
  /** The name clients call (namespaced, `SERVER__TOOL`); unique in the catalogue. */
  name: string;
  /** The upstream server's name: what the `server` option filters on. Never parsed out of `name`. */
  server: string;
  title?: string;
  description?: string;
  /** Its top-level `properties` (names and descriptions) are indexed, with a small weight. */
  inputSchema?: JsonSchema;
}

/** Options of {@link ToolSearchIndex.search}. */
export interface ToolSearchOptions {
  /** At most this many hits (a positive integer); 10 when absent. */
  limit?: number;
  /** Only the tools of this upstream server (compared exactly). */
  server?: string;
}

/** One hit: the tool's served name and its score (only the order means anything). */
export interface ToolSearchHit {
  name: string;
  score: number;
}

/**
 * How much a term counts in each field. The name and the title say what a tool is; the
 * description says it at length; a parameter only hints at it.
 */
const FIELD_WEIGHTS = { name: 3, title: 2, description: 1, parameters: 0.5 } as const;
type Field = keyof typeof FIELD_WEIGHTS;
const FIELDS = Object.keys(FIELD_WEIGHTS) as Field[];

/** BM25 term-frequency saturation and length normalisation (the usual values). */
const K1 = 1.2;
const B = 0.75;
/** A query word that only begins a term (`repo` → `repository`) counts this much of a whole match. */
const PREFIX_WEIGHT = 0.5;
/** Shorter query words do not match as prefixes (`a`, `ls` would match half the vocabulary). */
const MIN_PREFIX_LENGTH = 3;
/** The text of one field indexed at most: an upstream server's description is untrusted and unbounded. */
const MAX_FIELD_CHARS = 10_000;
/** The parameters of one tool indexed at most. */
const MAX_PARAMETERS = 100;

/** The tools that hold one term (positions in the catalogue) and, at the same index, the term's score in each. */
interface Postings {
  docs: number[];
  scores: number[];
}

/** What a hit needs of its tool: the served name and the server the `server` option compares. */
interface Doc {
  name: string;
  server: string;
}

/**
 * An immutable search index over one catalogue. The constructor throws `INVALID_ARGUMENT` when
 * two tools share a name; nothing else it is given throws (fields of the wrong type are skipped).
 */
export class ToolSearchIndex {
  readonly #docs: Doc[] = [];
  /**
   * The exact-name rule's lookups: tools by whole name and by name without the `SERVER__` prefix,
   * both lowercased (two tools may differ only in case, so each key holds a list).
   */
  readonly #byName = new Map<string, number[]>();
  readonly #byToolName = new Map<string, number[]>();
  readonly #postings = new Map<string, Postings>();
  /** Every term, sorted, for the prefix matches of a query word. */
  readonly #terms: string[];

  constructor(tools: readonly SearchableTool[]) {
    const names = new Set<string>();
    // Pass 1: each tool's terms per field, each field's total length, each term's document frequency.
    const fieldTerms: string[][][] = [];
    const totals = FIELDS.map(() => 0);
    const frequency = new Map<string, { documents: number; lastDoc: number }>();
    for (const tool of tools) {
      if (names.has(tool.name)) throw new McpError('INVALID_ARGUMENT', `two tools are named "${tool.name}"`);
      names.add(tool.name);
      const doc = this.#docs.length;
      const prefix = `${tool.server}__`;
      this.#docs.push({ name: tool.name, server: tool.server });
      append(this.#byName, tool.name.toLowerCase(), doc);
      if (tool.name.startsWith(prefix)) append(this.#byToolName, tool.name.slice(prefix.length).toLowerCase(), doc);
      const perField = FIELDS.map((field) => tokenize(fieldText(tool, field)));
      perField.forEach((terms, f) => {
        totals[f]! += terms.length;
        for (const term of terms) {
          const seen = frequency.get(term);
          if (seen === undefined) frequency.set(term, { documents: 1, lastDoc: doc });
          else if (seen.lastDoc !== doc) {
            seen.documents += 1;
            seen.lastDoc = doc;
          }
        }
      });
      fieldTerms.push(perField);
    }
    // Pass 2: BM25F — a term's frequencies, normalised by each field's length and weighted, are summed
    // before the one saturation, so a word in both the name and the description is not counted twice over.
    const n = this.#docs.length;
    const averages = totals.map((total) => (total === 0 ? 1 : total / n));
    const weights = FIELDS.map((field) => FIELD_WEIGHTS[field]);
    fieldTerms.forEach((perField, doc) => {
      const tf = new Map<string, number>();
      perField.forEach((terms, f) => {
        const share = weights[f]! / (1 - B + (B * terms.length) / averages[f]!);
        for (const term of terms) tf.set(term, (tf.get(term) ?? 0) + share);
      });
      for (const [term, weighted] of tf) {
        const df = frequency.get(term)!.documents;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        let postings = this.#postings.get(term);
        if (postings === undefined) this.#postings.set(term, (postings = { docs: [], scores: [] }));
        postings.docs.push(doc);
        postings.scores.push((idf * weighted * (K1 + 1)) / (weighted + K1));
      }
    });
    this.#terms = [...this.#postings.keys()].sort();
  }

  /** How many tools the index holds. */
  get size(): number {
    return this.#docs.length;
  }

  /**
   * The tools that best match `query`, best first: by score descending, then by name (code-unit
   * order), so equal scores come out the same way on every run and for every catalogue order.
   * A tool whose whole name equals the trimmed query (case-insensitively) comes first; one whose
   * name without its `SERVER__` prefix equals it comes next; both have their score raised above
   * every plain score, so the order stays the order by score. Words match whole terms, and — at half weight, for words
   * of three letters or more — the start of longer ones. A query that matches nothing gives `[]`.
   * Throws `INVALID_ARGUMENT` for a query that is not a string or is empty or only whitespace, and
   * for a `limit` that is not a positive integer.
   */
  search(query: string, options: ToolSearchOptions = {}): ToolSearchHit[] {
    if (typeof query !== 'string' || query.trim() === '') {
      throw new McpError('INVALID_ARGUMENT', 'the search query must be a non-empty string');
    }
    const { limit = 10, server } = options;
    if (!Number.isInteger(limit) || limit < 1) {
      throw new McpError('INVALID_ARGUMENT', `the search limit must be a positive integer (got ${String(limit)})`);
    }
    const scores = this.#bm25(query);
    const exact = query.trim().toLowerCase();
    const tiers = new Map<number, number>();
    for (const doc of this.#byToolName.get(exact) ?? []) tiers.set(doc, 1);
    for (const doc of this.#byName.get(exact) ?? []) tiers.set(doc, 2);
    const hits: Array<{ doc: number; score: number }> = [];
    let top = 0;
    for (const doc of new Set([...scores.keys(), ...tiers.keys()])) {
      if (server !== undefined && this.#docs[doc]!.server !== server) continue;
      const score = scores.get(doc) ?? 0;
      top = Math.max(top, score);
      hits.push({ doc, score });
    }
    // Raising the exact matches by more than any plain score keeps "score descending" the one order.
    const lift = top + 1;
    const ranked = hits.map(({ doc, score }) => ({
      name: this.#docs[doc]!.name,
      score: score + (tiers.get(doc) ?? 0) * lift,
    }));
    ranked.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return ranked.slice(0, limit);
  }

  /** Each matching tool's BM25F score for `query`: the sum over its distinct words of each word's best match. */
  #bm25(query: string): Map<number, number> {
    const scores = new Map<number, number>();
    for (const word of new Set(tokenize(query))) {
      const best = new Map<number, number>();
      const take = (term: string, weight: number): void => {
        const postings = this.#postings.get(term);
        if (postings === undefined) return;
        postings.docs.forEach((doc, i) => {
          best.set(doc, Math.max(best.get(doc) ?? 0, postings.scores[i]! * weight));
        });
      };
      take(word, 1);
      if (word.length >= MIN_PREFIX_LENGTH) {
        for (let i = lowerBound(this.#terms, word); i < this.#terms.length; i++) {
          const term = this.#terms[i]!;
          if (!term.startsWith(word)) break;
          if (term !== word) take(term, PREFIX_WEIGHT);
        }
      }
      for (const [doc, score] of best) scores.set(doc, (scores.get(doc) ?? 0) + score);
    }
    return scores;
  }
}

/** The text of one field of a tool; fields that are not strings count as empty. */
function fieldText(tool: SearchableTool, field: Field): string {
  switch (field) {
    case 'name':
      return bounded(tool.name);
    case 'title':
      return bounded(tool.title);
    case 'description':
      return bounded(tool.description);
    case 'parameters':
      return parameterText(tool.inputSchema);
  }
}

/** The names and descriptions of a schema's top-level properties, one per line. */
function parameterText(schema: unknown): string {
  if (!isRecord(schema) || !isRecord(schema.properties)) return '';
  const lines: string[] = [];
  for (const [name, property] of Object.entries(schema.properties).slice(0, MAX_PARAMETERS)) {
    lines.push(bounded(name));
    if (isRecord(property)) lines.push(bounded(property.description));
  }
  return bounded(lines.join('\n'));
}

function bounded(text: unknown): string {
  return typeof text === 'string' ? text.slice(0, MAX_FIELD_CHARS) : '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function append(map: Map<string, number[]>, key: string, doc: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [doc]);
  else list.push(doc);
}

/** The first index of `sorted` whose term is not less than `term`. */
function lowerBound(sorted: readonly string[], term: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < term) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
