/**
 * `ResourceNotFoundError`: what a resource's or template's `read` throws when nothing is at the
 * URI it was given. The kit answers `resources/read` with the revision's not-found error, never
 * with empty `contents` (the spec forbids an empty array for a resource that does not exist).
 */
import { McpError } from '../protocol/errors.js';

/**
 * "Nothing at this URI", thrown from a `read` (`throw new ResourceNotFoundError(uri)`). The
 * client gets the answer an unknown URI gets: JSON-RPC error -32002 "Resource not found" up to
 * 2025-11-25, -32602 in 2026-07-28 (where not-found is invalid params), with `data: { uri }`.
 * Nothing else of it (no `cause`, no stack) leaves the server. Its `code` as an {@link McpError}
 * is `RESOURCE_NOT_FOUND`.
 */
export class ResourceNotFoundError extends McpError {
  override readonly name = 'ResourceNotFoundError';
  declare readonly code: 'RESOURCE_NOT_FOUND';
  /** The URI that was read. */
  readonly uri: string;

  constructor(uri: string, options: { cause?: unknown } = {}) {
    super(
      'RESOURCE_NOT_FOUND',
      `resource not found: ${uri}`,
      options.cause === undefined ? {} : { cause: options.cause },
    );
    this.uri = uri;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), uri: this.uri };
  }
}
