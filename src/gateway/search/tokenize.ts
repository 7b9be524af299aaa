/**
 * The terms of tool names and texts for search mode (WP-7): the same function splits what is
 * indexed and what is asked, so both sides agree on every rule below.
 *
 * A name or a text is cut at every boundary a tool name or a sentence can have: whitespace and
 * punctuation, `_` and `-` (snake_case, kebab-case, the gateway's `SERVER__TOOL` separator), a
 * lower-to-upper change (camelCase, PascalCase), the end of a run of capitals (`HTTPServer` →
 * `http`, `server`) and a letter-digit change (`s3` → `s`, `3`). Each word is lowercased, the
 * words of {@link STOP_WORDS} are dropped and the rest pass through {@link stem}.
 */

/** Common English words that say nothing about what a tool does; never a term. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'been',
  'by',
  'can',
  'for',
  'from',
  'has',
  'have',
  'how',
  'i',
  'in',
  'into',
  'is',
  'it',
  'its',
  'me',
  'my',
  'of',
  'on',
  'or',
  'that',
  'the',
  'their',
  'them',
  'then',
  'there',
  'these',
  'this',
  'those',
  'to',
  'was',
  'were',
  'what',
  'when',
  'which',
  'will',
  'with',
  'you',
  'your',
]);

// An apostrophe inside a word joins it (`don't`, `user's`) instead of splitting off a stray letter.
const APOSTROPHE = /(?<=\p{L})['\u2019](?=\p{L})/gu;
/**
 * One word, in order of preference: a run of capitals that ends where a capitalised word starts
 * (`HTTP` of `HTTPServer`), an optional capital and lowercase letters (`Server`, `read`), a run
 * of capitals (`API`), a run of digits, letters without case (`日本語`). Combining marks stay with
 * their letter. Whatever matches none of these (`_`, `__`, `-`, `.`, `/`, spaces, …) separates.
 * One matching pass: several times faster than splitting at lookbehind boundaries.
 */
const WORD = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?[\p{Ll}\p{M}]+|[\p{Lu}\p{M}]+|\p{N}+|[\p{L}\p{M}]+/gu;

/**
 * The words of `text` in order, lowercased, before stop words and stemming: `readFileSync` →
 * `read`, `file`, `sync`; `github__create_issue` → `github`, `create`, `issue`; `s3` → `s`, `3`.
 * Never throws.
 */
export function splitWords(text: string): string[] {
  const joined = text.includes("'") || text.includes('\u2019') ? text.replace(APOSTROPHE, '') : text;
  return (joined.match(WORD) ?? []).map((word) => word.toLowerCase());
}

/**
 * The search terms of `text` in order (repeats kept, for term frequencies): its
 * {@link splitWords} without {@link STOP_WORDS}, each {@link stem}med. Empty for a text of only
 * stop words, punctuation or whitespace. Never throws.
 */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const word of splitWords(text)) {
    let term = TERMS.get(word);
    if (term === undefined) {
      // A catalogue repeats its words across hundreds of tools; the cap bounds what hostile text can fill.
      if (TERMS.size >= TERM_CACHE_SIZE) TERMS.clear();
      term = STOP_WORDS.has(word) ? '' : stem(word);
      TERMS.set(word, term);
    }
    if (term !== '') terms.push(term);
  }
  return terms;
}

/** Each word's term, `''` for a stop word: a memo of a pure function, so it changes no result. */
const TERMS = new Map<string, string>();
const TERM_CACHE_SIZE = 20_000;

/**
 * A light suffix stemmer for lowercase ASCII words, so that the forms a description and a query
 * use meet: a plural (`issues`, `queries` → `query`, `branches`), `-ing` and `-ed` (with a doubled
 * final consonant undone: `running` → `run`), and a final `e` (`create`, `creates`, `created`,
 * `creating` all become `creat`). Words of fewer than four letters, and words with anything but
 * `a`–`z`, are returned as they are. Deliberately not Porter: it may join or split a few rare
 * forms; both sides of a search go through it, so what counts is that common forms meet.
 */
export function stem(word: string): string {
  if (word.length < 4 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = w.slice(0, -3) + 'y';
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  // The stem left must keep at least three letters: `ping`, `thing`, `need` stay whole.
  if (w.endsWith('ing') && w.length >= 6) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && w.length >= 5) w = undouble(w.slice(0, -2));
  if (w.endsWith('e') && !w.endsWith('ee') && w.length >= 4) w = w.slice(0, -1);
  return w;
}

/** `stopp` → `stop`, `runn` → `run`; `pull`, `pass`, `buzz` and the three-letter `add` keep theirs. */
function undouble(w: string): string {
  const last = w.charAt(w.length - 1);
  if (w.length >= 4 && last === w.charAt(w.length - 2) && !'aeioulsz'.includes(last)) return w.slice(0, -1);
  return w;
}
