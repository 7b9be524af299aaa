/**
 * A Next.js app's `lib/mcp.ts`: the app's one kit server and its fetch handler, made once when the
 * module is first evaluated (as Next.js evaluates it once per server process). The app's page
 * origin is the one CORS origin it allows.
 */
import { createFetchHandler } from '../../../src/server/index.js';
import { mountedServer } from '../mounted-server.js';

/** The origin the app's pages are served from (a browser there may call the route). */
export const APP_ORIGIN = 'http://localhost:3000';

/** The app's kit server (with the counts the tests read). */
export const served = mountedServer('on-next-route');

/** The handler the route module exports as each method. */
export const handler = createFetchHandler(served.server, { path: '/mcp', cors: { origins: [APP_ORIGIN] } });
