/** Authentication: the card's security schemes enforced, or an authenticator of your own. */
export { createServerAuthentication, skillFromMetadata } from './options.js';
export type { AuthOptions, ServerAuthentication, SkillSelector } from './options.js';
export { CardAuthenticator } from './card-authenticator.js';
export type { CardAuthOptions, SchemeSetup, SecurityDeclarations } from './card-authenticator.js';
export {
  apiKeyVerifier,
  basicVerifier,
  bearerVerifier,
  httpVerifier,
  mtlsVerifier,
  staticSecrets,
  staticUsers,
} from './verifiers.js';
export type {
  ApiKeyVerify,
  BasicVerify,
  BearerVerify,
  CertificateVerify,
  HttpVerify,
  SchemeCheck,
  SchemeVerifier,
} from './verifiers.js';
export { DEFAULT_JWT_ALGORITHMS, defaultPrincipal, jwtVerifier, scopesOf } from './jwt.js';
export type { JwtOptions } from './jwt.js';
export { challengeFor, describeRequirement } from './challenge.js';
export { authorize, decide } from './requirements.js';
export { constantTimeEqual, requestCookies } from './credentials.js';
export { grantedScopes, isAuthFailure } from './types.js';
export type {
  AuthBinding,
  AuthenticatedPrincipal,
  Authenticator,
  AuthFailure,
  AuthFailureCode,
  AuthHttpMessage,
  AuthOutcome,
  AuthRequest,
  ClientCertificate,
  Principal,
} from './types.js';
