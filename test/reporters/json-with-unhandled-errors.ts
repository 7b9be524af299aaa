/**
 * Vitest's JSON report plus the run's unhandled errors, for `.ci/run`. Vitest fails a run that
 * had an unhandled error or rejection (a promise nobody awaited, an error thrown from a timer
 * after its test ended) even when every test passed, but its JSON report has no field for them.
 * This reporter writes the same report with three changes: `numUnhandledErrors`,
 * `unhandledErrors` (name and message of each) and `success` false when there was any.
 *
 * Use: `vitest run --reporter=default --reporter=./test/reporters/json-with-unhandled-errors.ts
 * --outputFile.json=<file>`.
 */
import type { Reporter } from 'vitest/node';
import { JsonReporter } from 'vitest/reporters';

type RunEnd = Parameters<NonNullable<Reporter['onTestRunEnd']>>;

export default class JsonWithUnhandledErrors extends JsonReporter {
  private unhandled: RunEnd[1] = [];

  override async onTestRunEnd(testModules: RunEnd[0], unhandledErrors: RunEnd[1] = []): Promise<void> {
    this.unhandled = unhandledErrors;
    await super.onTestRunEnd(testModules);
  }

  override async writeReport(report: string): Promise<void> {
    const parsed = JSON.parse(report) as Record<string, unknown>;
    parsed.numUnhandledErrors = this.unhandled.length;
    parsed.unhandledErrors = this.unhandled.map((error) => ({ name: error.name ?? 'Error', message: error.message }));
    if (this.unhandled.length > 0) parsed.success = false;
    await super.writeReport(JSON.stringify(parsed));
  }
}
