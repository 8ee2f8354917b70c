/**
 * `a2a-kit/push`: push notifications that arrive. The agent side: `createPushNotifier()` (durable
 * outbox, ordered retried deliveries, SSRF guard, signed bodies), `PushSigner` and the JWKS
 * handler. The webhook side: `createPushReceiver()` and `receivePushNotifications()`. Node-side
 * subpath (the default transport and DNS checks use node:*); the receiver itself is runtime-neutral.
 */
export { createPushNotifier } from './notifier.js';
export type {
  PushEventKind,
  PushMetrics,
  PushNotifierHandle,
  PushNotifierOptions,
} from './notifier.js';
export type {
  DeliveryAttempt,
  DeliveryInstrument,
  PushDeliveryOutcome,
  PushRequestSigner,
} from './worker.js';
export { DEFAULT_PUSH_RETRY, backoffDelay, parseRetryAfter } from './delivery.js';
export type { RetryPolicy } from './delivery.js';
export type {
  ClaimRef,
  ClaimedDelivery,
  DeliveryState,
  NewDelivery,
  PushOutbox,
  StoredDelivery,
} from '../stores/types.js';
export { WebhookGuard, WebhookRefused, systemResolver } from './ssrf.js';
export type { ResolvedAddress, Resolver, WebhookGuardOptions } from './ssrf.js';
export { blockedAddressReason } from './ip-ranges.js';
export { TransportFailure, fetchTransport, guardedTransport } from './transport.js';
export { sinkTransport } from './sinks.js';
export type { PushSink } from './sinks.js';
export type {
  PushRequest,
  PushResponse,
  PushTransport,
  TransportFailureKind,
} from './transport.js';
export {
  PUSH_ID_HEADER,
  PUSH_JWT_TYPE,
  PUSH_SIGNATURE_HEADER,
  PUSH_TOKEN_HEADER,
  PushSigner,
  sha256Base64url,
} from './signing.js';
export type { PushClaims, PushSignerOptions } from './signing.js';
export { PUSH_JWKS_PATH, createPushJwksHandler } from './jwks.js';
export type { PushJwksHandlerOptions } from './jwks.js';
export { PushRejected, createPushReceiver } from './receiver.js';
export type {
  PushReceiver,
  PushReceiverOptions,
  PushRejectReason,
  PushRequestInput,
  PushRequestVerifier,
  VerifiedPush,
} from './receiver.js';
export { KeysUnavailable } from './receiver-keys.js';
export type { PushKeySource, PushKeysOptions } from './receiver-keys.js';
export { MemoryReplayCache } from './replay-cache.js';
export type { ReplayCache } from './replay-cache.js';
export { receivePushNotifications } from './receive-server.js';
export type { PushReceiverServer, ReceivePushOptions } from './receive-server.js';
export { MemoryPushOutbox } from '../stores/memory/push-outbox.js';
