/**
 * The ajv schema of a server entry, kept apart from the code that applies it so the accepted
 * shape can be read in one place.
 */

const stringArray = { type: 'array', items: { type: 'string' } };
const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
/**
 * The shape of one server entry after transport mapping (`type`/`transport` folded into
 * `transport`, `disabled` into `enabled`, keys unknown to us removed): our own JSON Schema
 * (draft-07 keywords), not a host's. Required fields depend on the transport and are checked
 * before this schema, so their errors can say "command" or "url" plainly.
 */
export const SERVER_ENTRY_SCHEMA = {
  type: 'object',
  properties: {
    transport: { enum: ['stdio', 'http', 'sse'] },
    command: { type: 'string', minLength: 1 },
    args: stringArray,
    env: stringMap,
    cwd: { type: 'string' },
    url: { type: 'string', pattern: '^https?://' },
    headers: stringMap,
    headersHelper: { type: 'string', minLength: 1 },
    enabled: { type: 'boolean' },
    autoConnect: { type: 'boolean' },
    timeoutMs: { type: 'integer', minimum: 1 },
    startupTimeoutMs: { type: 'integer', minimum: 1 },
    toolTimeoutMs: { type: 'integer', minimum: 1 },
    includeTools: stringArray,
    excludeTools: stringArray,
    oauth: {
      anyOf: [
        { const: false },
        {
          type: 'object',
          properties: {
            clientId: { type: 'string', minLength: 1 },
            clientSecret: { type: 'string', minLength: 1 },
            scopes: stringArray,
            callbackPort: { type: 'integer', minimum: 0, maximum: 65535 },
            clientMetadataUrl: { type: 'string', pattern: '^https?://' },
            grant: { enum: ['authorization_code', 'client_credentials'] },
            privateKeyFile: { type: 'string', minLength: 1 },
            signingAlgorithm: { enum: ['ES256', 'RS256'] },
            tokenEndpointAuthMethod: { enum: ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'] },
          },
          // A secret or a key belongs to a pre-registered client; the machine grant needs one.
          dependencies: { clientSecret: ['clientId'], privateKeyFile: ['clientId'] },
          if: { properties: { grant: { const: 'client_credentials' } }, required: ['grant'] },
          then: { required: ['clientId'] },
          additionalProperties: false,
        },
      ],
    },
    restart: {
      anyOf: [
        { const: false },
        { const: 'never' },
        {
          type: 'object',
          properties: {
            maxRestarts: { type: 'integer', minimum: 0 },
            initialDelayMs: { type: 'integer', minimum: 0 },
            maxDelayMs: { type: 'integer', minimum: 0 },
            resetAfterMs: { type: 'integer', minimum: 0 },
          },
          additionalProperties: false,
        },
      ],
    },
  },
} as const;
