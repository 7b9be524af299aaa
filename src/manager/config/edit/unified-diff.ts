/** The `--dry-run` view of an edit: a unified diff (`diff`'s `createTwoFilesPatch`). */
import { scrubSecrets } from '../../../util/redact.js';
import { diffLibrary } from './editor-libraries.js';

/**
 * A unified diff from `before` to `after` of `file` (`/dev/null` as the old name when the file
 * does not exist yet), with every value in `secrets` shown as `***`; empty when nothing changes.
 * Throws `DEPENDENCY_MISSING` when `diff` (an optional peer dependency) is not installed.
 */
export function unifiedDiff(
  file: string,
  before: string | undefined,
  after: string,
  secrets: Iterable<string>,
): string {
  if (before === after) return '';
  const patch = diffLibrary().createTwoFilesPatch(
    before === undefined ? '/dev/null' : file,
    file,
    before ?? '',
    after,
    '',
    '',
    {
      context: 3,
    },
  );
  // The "Index:"/"====" lines createTwoFilesPatch starts with are not part of a unified diff.
  const body = patch.replace(/^(Index: .*\n)?=+\n/, '').replace(/\t\n/g, '\n');
  return scrubSecrets(body, secrets).trimEnd();
}
