/**
 * `a2a-kit/did`: agent identity by did:wba (ANP did:wba method v1.1). Clients sign requests with
 * RFC 9421 HTTP Message Signatures and an RFC 9530 Content-Digest (`didSignedFetch`); servers
 * resolve the DID document over HTTPS and verify them (`didWbaVerifier`, a security scheme);
 * agents publish their document (`didDocumentRoutes`) and sign push deliveries (`didPushSigner`).
 * `e1_` DIDs (`e1DidOf`) bind an Ed25519 key by its thumbprint and carry an `eddsa-jcs-2022`
 * Data Integrity proof, which resolution verifies.
 * Node-only; needs the optional peer `http-message-signatures`. Guide: docs/trust.md.
 */
export { DidAuthError } from './errors.js';
export type { DidAuthReason } from './errors.js';
export {
  E1_PREFIX,
  didDocumentPath,
  didWbaForUrl,
  parseDidWba,
  splitDidUrl,
} from './identifier.js';
export { checkE1Proof, e1DidOf, isE1Did, signE1Document } from './e1.js';
export {
  DATA_INTEGRITY_PROOF,
  EDDSA_JCS_2022,
  createEddsaJcs2022Proof,
  eddsaJcs2022HashData,
  eddsaJcs2022Problem,
  signEddsaJcs2022,
} from './data-integrity.js';
export type { DataIntegrityProof, EddsaJcs2022Options } from './data-integrity.js';
export {
  decodeMultibaseBase58btc,
  ed25519JwkOfMultikey,
  ed25519Multikey,
  ed25519Thumbprint,
  multibaseBase58btc,
} from './multikey.js';
export type { DidWba } from './identifier.js';
export { algorithmOf, authenticationKey, checkDidDocument, createDidDocument } from './document.js';
export type {
  DidAuthenticationKey,
  DidDocument,
  DidDocumentOptions,
  DidPublicJwk,
  DidSignatureAlgorithm,
  DidVerificationMethod,
} from './document.js';
export { didDocumentOf, didIdentity, generateDidKey } from './identity.js';
export type { DidIdentity, DidIdentityOptions, DidPrivateJwk } from './identity.js';
export { contentDigest, contentDigestMatches } from './digest.js';
export { DID_SIGNATURE_LABEL, didSignedFetch, signRequest } from './sign.js';
export type { DidSignedFetchOptions, SignableRequest, SignRequestOptions } from './sign.js';
export { guardedDocumentFetch } from './https-get.js';
export type { DocumentFetch, DocumentFetchOptions } from './https-get.js';
export { DidResolver } from './resolver.js';
export type { DidResolverOptions } from './resolver.js';
export { DidRequestVerifier } from './verify.js';
export type { DidVerifierOptions, ReceivedRequest, VerifiedDid } from './verify.js';
export { DID_WBA_AUTH_SCHEME, didWbaSecurityScheme, didWbaVerifier } from './scheme.js';
export type { DidPrincipal, DidWbaVerifierOptions } from './scheme.js';
export { didPushSigner, didPushVerifier } from './push.js';
export type { DidPushVerifierOptions } from './push.js';
export { didDocumentRoutes } from './publish.js';
