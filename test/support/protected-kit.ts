/**
 * The machine client's side at a real authorization server: a client registered for
 * `client_credentials`, and raw access tokens for any resource. (The protected kit server itself
 * is `listenKitAt` of `kit-http.ts`: its handler is made once the canonical resource URL is known.)
 */
export interface MachineClient {
  clientId: string;
  clientSecret: string;
}

/**
 * Registers a confidential `client_credentials` client allowed `scopes` (RFC 7591 at the
 * provider); `grantTypes` for one allowed other grants too (a token exchange the test registered).
 */
export async function registerMachineClient(
  issuer: string,
  scopes: string[],
  grantTypes: string[] = ['client_credentials'],
): Promise<MachineClient> {
  const config = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as {
    registration_endpoint: string;
  };
  const response = await fetch(config.registration_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_types: grantTypes,
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
