/**
 * `a2a-kit/security`: RFC 8785 canonical JSON and signed Agent Cards (JWS, spec §8.4);
 * authentication of the card's schemes, limits, CORS and access control (docs/security.md).
 */
export { canonicalize, canonicalizeToBytes, compareUtf16, JcsError } from './jcs.js';
export {
  AGENT_CARD_FIELDS,
  agentCardSigningObject,
  agentCardSigningPayload,
  canonicalizeAgentCard,
} from './card-canonical.js';
export { signAgentCard, verifyAgentCard } from './card-signing.js';
export {
  AUDIT_EXPORT_FORMAT,
  chainHash,
  checkChain,
  exportLines,
  GENESIS_HASH,
} from './audit-chain.js';
export type { ChainCheck, ChainHead, ChainLink, ExportLine } from './audit-chain.js';
export { AUDIT_HEAD_TYPE, signHead, verifyHead } from './audit-head.js';
export type { AuditSigner, HeadClaims } from './audit-head.js';
export type {
  CardVerified,
  SignAgentCardOptions,
  VerifyAgentCardOptions,
  VerifyAgentCardResult,
} from './card-signing.js';
export {
  CARD_SIGNING_ALGORITHMS,
  exportPrivateJwk,
  exportPublicJwks,
  generateSigningKey,
  importSigningKey,
  isCardSigningAlgorithm,
} from './signing-keys.js';
export type { CardSigningAlgorithm, KeyMaterial, SigningKey } from './signing-keys.js';
export { fetchJwks, parseJwks } from './jwks.js';
export type { FetchJwksOptions } from './jwks.js';
export type { KeyResolver, KeySourceOptions } from './verification-keys.js';
export { CardSignatureError } from './signature-error.js';
export type {
  CardSignatureErrorCode,
  SignatureFailure,
  SignatureFailureCode,
} from './signature-error.js';
export {
  CardAuthenticator,
  apiKeyVerifier,
  basicVerifier,
  bearerVerifier,
  createServerAuthentication,
  httpVerifier,
  isAuthFailure,
  jwtVerifier,
  mtlsVerifier,
  scopesOf,
  skillFromMetadata,
  staticSecrets,
  staticUsers,
} from './auth/index.js';
export type {
  AuthBinding,
  AuthenticatedPrincipal,
  Authenticator,
  AuthFailure,
  AuthOptions,
  AuthOutcome,
  AuthRequest,
  ClientCertificate,
  JwtOptions,
  SchemeSetup,
  SchemeVerifier,
} from './auth/index.js';
export { AccessControl, ConcurrencyLimiter, DEFAULT_LIMITS, RateLimiter } from './limits/index.js';
export type { LimitOptions, RateLimitOptions } from './limits/index.js';
// CORS wraps an HTTP handler, so it lives in http/; the security entry keeps offering it.
export { withCors } from '../http/cors.js';
export type { CorsOptions } from '../http/cors.js';
