/**
 * A kit server behind `createHttpHandler({ auth })` on a real listener (127.0.0.1, port 0): the
 * handler is made once the port, and so the canonical resource URL, is known. And the machine
 * client's side at the real authorization server: a client registered for `client_credentials`,
 * and raw access tokens for any resource.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createHttpHandler,
  type HttpHandlerOptions,
  type McpHttpHandler,
  type McpServer,
} from '../../src/server/index.js';
import type { KitHttp } from './kit-http.js';

/** Listens first, then makes the handler with `options(url)` (`url` is `http://127.0.0.1:PORT/mcp`). */
export async function listenProtectedKit(
  server: McpServer,
  options: (url: string) => HttpHandlerOptions,
): Promise<KitHttp> {
  let handler: McpHttpHandler | undefined;
  const listener = http.createServer((req, res) => handler!(req, res));
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/mcp`;
  handler = createHttpHandler(server, { path: '/mcp', ...options(url) });
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    handler,
    listener,
    close: () =>
      (closing ??= (async () => {
        await handler.close({ graceMs: 1_000 });
        listener.closeAllConnections();
        await new Promise<void>((resolve) => listener.close(() => resolve()));
      })()),
  };
}

export interface MachineClient {
  clientId: string;
  clientSecret: string;
}

/** Registers a confidential `client_credentials` client allowed `scopes` (RFC 7591 at the provider). */
export async function registerMachineClient(issuer: string, scopes: string[]): Promise<MachineClient> {
  const config = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as {
    registration_endpoint: string;
  };
  const response = await fetch(config.registration_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: scopes.join(' '),
    }),
  });
  const body = (await response.json()) as { client_id?: string; client_secret?: string };
  if (!response.ok || !body.client_id || !body.client_secret)
    throw new Error(`registration failed: ${response.status} ${JSON.stringify(body)}`);
  return { clientId: body.client_id, clientSecret: body.client_secret };
}

/** A JWT access token for `resource` with `scopes`, straight from the token endpoint. */
export async function machineToken(
  issuer: string,
  client: MachineClient,
  resource: string,
  scopes: string[],
): Promise<string> {
  const config = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as {
    token_endpoint: string;
  };
  const response = await fetch(config.token_endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope: scopes.join(' ') }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!response.ok || !body.access_token)
    throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}
