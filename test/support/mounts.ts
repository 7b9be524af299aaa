/**
 * The kit mounted the way each framework's users mount it, each on a real loopback listener
 * (127.0.0.1, port 0): Hono and a Next.js-style route module on `createFetchHandler`, Express and
 * Fastify on `createHttpHandler` (their raw request and response). One {@link Mount} shape, so
 * one contract (`mount-contract.ts`) drives every mount with the same clients.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { vi } from 'vitest';
import { createFetchHandler, createHttpHandler } from '../../src/server/index.js';
import { mountedServer, type MountedServer } from './mounted-server.js';

/** The options a test may give a mount (the path is the mount's: `/mcp`). */
export type MountOptions = Omit<NonNullable<Parameters<typeof createFetchHandler>[1]>, 'path'>;

/** What either handler counts (both have these). */
export interface HandlerCounts {
  readonly inFlight: number;
  readonly openStreams: number;
  readonly openListens: number;
}

/** One mounted kit endpoint; `close()` is idempotent and closes the server too. */
export interface MountedEndpoint {
  /** `http://127.0.0.1:PORT/mcp` */
  url: string;
  origin: string;
  served: MountedServer;
  handler: HandlerCounts;
  close(): Promise<void>;
}

/** A way to mount the kit: `start` serves a fresh {@link mountedServer} behind it. */
export interface Mount {
  name: string;
  start(options?: MountOptions): Promise<MountedEndpoint>;
}

/** A listener's origin (`http://127.0.0.1:PORT`) and its stop (it and its connections closed). */
export interface Listening {
  origin: string;
  stop: () => Promise<void>;
}

/** Listens on 127.0.0.1, port 0; resolves with the listener's origin. */
async function listen(listener: http.Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
}

/** Closes a listener and every connection it still holds. */
async function stop(listener: http.Server): Promise<void> {
  listener.closeAllConnections();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
}

/** The teardown of a mount: the handler's graceful close (1 s), the listener, then the server. */
function endpoint(
  origin: string,
  served: MountedServer,
  handler: HandlerCounts & { close(options?: { graceMs?: number }): Promise<void> },
  stopListener: () => Promise<void>,
): MountedEndpoint {
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/mcp`,
    origin,
    served,
    handler,
    close: () =>
      (closing ??= (async () => {
        await handler.close({ graceMs: 1_000 });
        await stopListener();
        await served.server.close();
      })()),
  };
}

/**
 * A fetch handler `(request) => Promise<Response>` served on node:http by `@hono/node-server`
 * (what Hono's Node users run); resolves with its origin and its stop.
 */
export async function serveFetch(fetch: (request: Request) => Response | Promise<Response>): Promise<Listening> {
  const listener = createAdaptorServer({ fetch }) as http.Server;
  const origin = await listen(listener);
  return { origin, stop: () => stop(listener) };
}

/** Hono: `app.all('/mcp', (c) => handler(c.req.raw))`. */
export const honoMount: Mount = {
  name: 'Hono',
  async start(options) {
    const served = mountedServer('on-hono');
    const handler = createFetchHandler(served.server, { path: '/mcp', ...options });
    const app = new Hono();
    app.all('/mcp', (c) => handler(c.req.raw));
    const { origin, stop: stopListener } = await serveFetch((request) => app.fetch(request));
    return endpoint(origin, served, handler, stopListener);
  },
};

/** Express 5: `app.all('/mcp', createHttpHandler(...))`, no body parser before it. */
export const expressMount: Mount = {
  name: 'Express',
  async start(options) {
    const served = mountedServer('on-express');
    const handler = createHttpHandler(served.server, { path: '/mcp', ...options });
    const app = express();
    app.all('/mcp', handler);
    const listener = app.listen(0, '127.0.0.1');
    return endpoint(await listen(listener), served, handler, () => stop(listener));
  },
};

/**
 * Fastify 5, the kit in an encapsulated plugin: that scope's content-type parsers are replaced by
 * one that reads nothing (so the body stream reaches the kit whole; the app's other routes keep
 * Fastify's JSON parsing), and the route hands the raw request and response to the kit after
 * `reply.hijack()` (so Fastify sends nothing of its own).
 */
export const fastifyMount: Mount = {
  name: 'Fastify',
  async start(options) {
    const served = mountedServer('on-fastify');
    const handler = createHttpHandler(served.server, { path: '/mcp', ...options });
    const app = Fastify();
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
      scope.all('/mcp', (request, reply) => {
        reply.hijack();
        handler(request.raw, reply.raw);
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    return endpoint(`http://127.0.0.1:${port}`, served, handler, async () => {
      app.server.closeAllConnections();
      await app.close();
    });
  },
};

/** The exports of a Next.js App Router route module (`app/mcp/route.ts`). */
export type RouteModule = typeof import('./next-app/route.js');

/** A Next.js app's route module and the app module behind it, evaluated afresh (as a new server process). */
export interface NextApp {
  route: RouteModule;
  app: typeof import('./next-app/mcp.js');
}

/** Evaluates the Next.js-style app afresh: a new kit server and handler behind its route module. */
export async function loadNextApp(): Promise<NextApp> {
  vi.resetModules();
  const route = await import('./next-app/route.js');
  return { route, app: await import('./next-app/mcp.js') };
}

/**
 * Calls a route module the way Next.js does: the export named by the request's method, with the
 * request and a context whose `params` is a promise; 405 when the module exports no such method.
 */
export async function dispatchToRoute(route: RouteModule, request: Request): Promise<Response> {
  const method = request.method as 'GET' | 'POST' | 'DELETE' | 'OPTIONS';
  const exported = (route as Partial<Record<string, unknown>>)[method];
  if (typeof exported !== 'function') return new Response(null, { status: 405 });
  return (exported as RouteModule['POST'])(request, { params: Promise.resolve({}) });
}

/** A Next.js-style route module behind a tiny dispatcher on `@hono/node-server`. */
export const nextRouteMount: Mount = {
  name: 'Next.js route',
  async start(options) {
    if (options && Object.keys(options).length > 0)
      throw new Error('a route module has its options in its source; pass none');
    const { route, app } = await loadNextApp();
    const { origin, stop: stopListener } = await serveFetch((request) => dispatchToRoute(route, request));
    return endpoint(origin, app.served, app.handler, stopListener);
  },
};

/** Every mount the contract runs against. */
export const MOUNTS: readonly Mount[] = [honoMount, expressMount, fastifyMount, nextRouteMount];

/** A node:http request listener served on 127.0.0.1, port 0; resolves with its origin and its stop. */
export async function serveNode(listener: http.RequestListener): Promise<Listening> {
  const server = http.createServer(listener);
  const origin = await listen(server);
  return { origin, stop: () => stop(server) };
}
