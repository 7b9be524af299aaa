/**
 * One scripted HTTP server and one client per test: the test starts the fixture through
 * `scene.start` and keeps its client in `scene.client`; after each test both are ended as
 * {@link cleanUp} ends them (the client closed, no socket left open, the fixture closed, cached
 * route verdicts forgotten).
 */
import { afterEach } from 'vitest';
import { PROCESS_HTTP_ROUTES } from '../../src/client/http-routes.js';
import { cleanUp, startHttpFixture, type HttpFixture, type Route } from './http-fixture.js';

export interface HttpScene<C extends { close(): Promise<void> }> {
  /** The fixture `start` made for this test (throws when the test has started none). */
  readonly fixture: HttpFixture;
  /** The client the test connected, ended after the test. */
  client: C | undefined;
  /** Starts this test's fixture, as {@link startHttpFixture} does. */
  start(route: Route, fallback?: Route): Promise<HttpFixture>;
}

/** Registers the `afterEach` that ends each test's fixture and client. */
export function useHttpScene<C extends { close(): Promise<void> }>(): HttpScene<C> {
  let fixture: HttpFixture | undefined;
  const scene: HttpScene<C> = {
    get fixture(): HttpFixture {
      if (!fixture) throw new Error('this test started no HTTP fixture (scene.start)');
      return fixture;
    },
    client: undefined,
    async start(route, fallback) {
      fixture = await startHttpFixture(route, fallback);
      return fixture;
    },
  };
  afterEach(async () => void ([scene.client, fixture] = await cleanUp(scene.client, fixture)));
  return scene;
}

/**
 * Registers an `afterEach` that forgets the route verdicts the client cached in this process
 * (era and transport per URL), so no test inherits another's. Register it before the hooks that
 * close the test's servers: it runs after them.
 */
export function forgetHttpRoutesAfterEach(): void {
  afterEach(() => PROCESS_HTTP_ROUTES.clear());
}
