/**
 * Command lines a person pastes into a POSIX shell (sh, bash, zsh, dash): every word quoted so the
 * shell hands the program exactly that word, whatever it holds (spaces, `$`, quotes, globs,
 * newlines). Words that need nothing stay bare, so the common line reads as typed.
 */

/** Characters no POSIX shell gives a meaning to in a word (nor at its start: `~`, `#`, `=` are left out). */
const PLAIN = /^[A-Za-z0-9_@%+,./:-]+$/;

/**
 * `word` as one POSIX shell word: unchanged when it is made of {@link PLAIN} characters only, else
 * in single quotes, each `'` in it written `'\''`. The empty word is `''`.
 */
export function shellQuote(word: string): string {
  if (PLAIN.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `words` as one command line for a POSIX shell: each quoted by {@link shellQuote}, joined by spaces. */
export function shellLine(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}
