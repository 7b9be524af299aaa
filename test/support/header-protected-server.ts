/**
 * A legacy Streamable HTTP server on 127.0.0.1 that wants one `Authorization` value: any other
 * is refused with 401 and a Bearer challenge whose body echoes what it got (so a test can check
 * that the value never reaches a message). The accepted value can change (a rotated token).
 */
import { json, legacyServer, startHttpFixture, type HttpFixture } from './http-fixture.js';

export interface HeaderProtectedServer extends HttpFixture {
  /** The value `Authorization` must have; change it to rotate. */
  accepted: string;
  /** How many requests were refused. */
  refused: number;
}

export async function startHeaderProtectedServer(accepted: string): Promise<HeaderProtectedServer> {
  const state = { accepted, refused: 0 };
  const fixture = await startHttpFixture((seen, res) => {
    const got = seen.headers.authorization;
    if (got === state.accepted) return false;
    state.refused++;
    return json(res, { error: 'invalid_token', error_description: `not accepted: ${got ?? 'nothing'}` }, 401, {
      'www-authenticate': 'Bearer error="invalid_token"',
    });
  }, legacyServer());
  return Object.defineProperties(fixture, {
    accepted: { get: () => state.accepted, set: (value: string) => (state.accepted = value) },
    refused: { get: () => state.refused },
  }) as HeaderProtectedServer;
}
