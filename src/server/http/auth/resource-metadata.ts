/**
 * Protected Resource Metadata (RFC 9728) of an MCP endpoint: the document, and the well-known
 * paths it is served at (path-based for the endpoint, and the root one, the two the MCP
 * authorization spec tells clients to try).
 */

/** What an MCP endpoint says about its protection. */
export interface ResourceMetadataOptions {
  /** The canonical URL of the MCP endpoint (`https://api.example.com/mcp`): the tokens' audience (RFC 8707). */
  resource: string;
  /** Issuer URLs of the authorization servers whose tokens this server accepts (at least one). */
  authorizationServers: readonly string[];
  /** Scopes this server understands (default: none listed). */
  scopesSupported?: readonly string[];
  /** A human-readable name of the resource. */
  resourceName?: string;
  /** A URL of documentation for developers. */
  resourceDocumentation?: string;
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** What the document says of DPoP (RFC 9728 §2), when the endpoint takes DPoP-bound tokens. */
export interface ResourceMetadataDpop {
  /** `dpop_signing_alg_values_supported`. */
  algorithms: readonly string[];
  /** `dpop_bound_access_tokens_required`. */
  required: boolean;
}

/**
 * The metadata document (`bearer_methods_supported` is only `header`: tokens never come in a URL
 * or body), with the DPoP fields when `dpop` is given.
 */
export function resourceMetadataDocument(
  options: ResourceMetadataOptions,
  dpop?: ResourceMetadataDpop,
): Record<string, unknown> {
  const document: Record<string, unknown> = {
    resource: options.resource,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: ['header'],
  };
  if (options.scopesSupported) document.scopes_supported = [...options.scopesSupported];
  if (options.resourceName !== undefined) document.resource_name = options.resourceName;
  if (options.resourceDocumentation !== undefined) document.resource_documentation = options.resourceDocumentation;
  if (dpop) {
    document.dpop_signing_alg_values_supported = [...dpop.algorithms];
    document.dpop_bound_access_tokens_required = dpop.required;
  }
  return document;
}

/**
 * The paths the document is served at: RFC 9728 §3.1's (the well-known prefix inserted before
 * the resource's path, `/.well-known/oauth-protected-resource/mcp`), and the root one.
 */
export function resourceMetadataPaths(resource: URL): string[] {
  const path = resource.pathname === '/' ? '' : resource.pathname.replace(/\/$/, '');
  return path === '' ? [WELL_KNOWN] : [WELL_KNOWN + path, WELL_KNOWN];
}

/** The URL a challenge's `resource_metadata` names: the path-based one. */
export function resourceMetadataUrl(resource: URL): string {
  return new URL(resourceMetadataPaths(resource)[0]!, resource.origin).href;
}
