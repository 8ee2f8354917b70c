/** Limits and access control shared by every binding: rate, streams, message sizes, CORS. */
export { AccessControl, authRefusal } from './access-control.js';
export type { AccessControlOptions, Refusal } from './access-control.js';
export { applyMessageLimits, capHistory, DEFAULT_LIMITS } from './message-limits.js';
export type { LimitOptions } from './message-limits.js';
export { ConcurrencyLimiter, RateLimiter } from './rate-limit.js';
export type { RateDecision, RateLimitOptions } from './rate-limit.js';
export { CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS, withCors } from './cors.js';
export type { CorsOptions } from './cors.js';
