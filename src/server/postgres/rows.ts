/** Conversions of PostgreSQL row values (`bigint` columns arrive as strings from `pg`). */

/** A `bigint` or `integer` column as a number (epoch milliseconds, sequence numbers: all < 2^53). */
export function num(value: string | number): number {
  return typeof value === 'number' ? value : Number(value);
}
