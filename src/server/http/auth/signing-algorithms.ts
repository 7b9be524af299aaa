/**
 * The JWS algorithms the resource server accepts by default, for access tokens and DPoP proofs
 * alike: asymmetric only, never `none` nor an HMAC (a shared secret would let any holder forge).
 */
export const ASYMMETRIC_ALGORITHMS: readonly string[] = Object.freeze([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
]);
