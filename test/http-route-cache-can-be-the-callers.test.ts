/**
 * The route each URL was found to speak is kept in a cache the caller can own (`http.routes`):
 * a client given its own cache reads and writes that one, never the process's, and a second
 * connect through it skips the probe.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HttpRouteCache, PROCESS_HTTP_ROUTES } from '../src/client/http-routes.js';
import { McpClient } from '../src/client/mcp-client.js';
import { cleanUp, type HttpFixture, legacyServer, startHttpFixture } from './support/http-fixture.js';

let fixture: HttpFixture | undefined;
let client: McpClient | undefined;

afterEach(async () => void ([client, fixture] = await cleanUp(client, fixture)));

describe('a route cache of the caller', () => {
  it('holds the verdict of a detecting connect; the process cache learns nothing', async () => {
    fixture = await startHttpFixture(legacyServer());
    const routes = new HttpRouteCache();
    client = await McpClient.connect({ url: fixture.url }, { http: { routes } });
    expect(client.era).toBe('legacy');
    const key = new URL(fixture.url).toString();
    expect(routes.get(key)).toBe('legacy');
    expect(PROCESS_HTTP_ROUTES.get(key)).toBeUndefined();
  });

  it('spares the next connect through it the probe; a connect with another cache probes again', async () => {
    fixture = await startHttpFixture(legacyServer());
    const routes = new HttpRouteCache();
    client = await McpClient.connect({ url: fixture.url }, { http: { routes } });
    await client.close();
    expect(fixture.seen('server/discover')).toHaveLength(1);

    client = await McpClient.connect({ url: fixture.url }, { http: { routes } });
    expect(client.era).toBe('legacy');
    expect(fixture.seen('server/discover')).toHaveLength(1);
    await client.close();

    client = await McpClient.connect({ url: fixture.url }, { http: { routes: new HttpRouteCache() } });
    expect(fixture.seen('server/discover')).toHaveLength(2);
  });
});
