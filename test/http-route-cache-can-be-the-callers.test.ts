/**
 * The route each URL was found to speak is kept in a cache the caller can own (`http.routes`):
 * a client given its own cache reads and writes that one, never the process's, and a second
 * connect through it skips the probe.
 */
import { describe, expect, it } from 'vitest';
import { HttpRouteCache, PROCESS_HTTP_ROUTES } from '../src/client/http-routes.js';
import { McpClient } from '../src/client/mcp-client.js';
import { legacyServer } from './support/http-fixture.js';
import { useHttpScene } from './support/http-scene.js';

const scene = useHttpScene<McpClient>();

describe('a route cache of the caller', () => {
  it('holds the verdict of a detecting connect; the process cache learns nothing', async () => {
    await scene.start(legacyServer());
    const routes = new HttpRouteCache();
    scene.client = await McpClient.connect({ url: scene.fixture.url }, { http: { routes } });
    expect(scene.client.era).toBe('legacy');
    const key = new URL(scene.fixture.url).toString();
    expect(routes.get(key)).toBe('legacy');
    expect(PROCESS_HTTP_ROUTES.get(key)).toBeUndefined();
  });

  it('spares the next connect through it the probe; a connect with another cache probes again', async () => {
    await scene.start(legacyServer());
    const routes = new HttpRouteCache();
    scene.client = await McpClient.connect({ url: scene.fixture.url }, { http: { routes } });
    await scene.client.close();
    expect(scene.fixture.seen('server/discover')).toHaveLength(1);

    scene.client = await McpClient.connect({ url: scene.fixture.url }, { http: { routes } });
    expect(scene.client.era).toBe('legacy');
    expect(scene.fixture.seen('server/discover')).toHaveLength(1);
    await scene.client.close();

    scene.client = await McpClient.connect({ url: scene.fixture.url }, { http: { routes: new HttpRouteCache() } });
    expect(scene.fixture.seen('server/discover')).toHaveLength(2);
  });
});
