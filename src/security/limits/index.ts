/** Limits and access control shared by every binding: rate, streams, message sizes. */
export { AccessControl, authRefusal } from './access-control.js';
export type { AccessControlOptions } from './access-control.js';
export { applyMessageLimits, capHistory, DEFAULT_LIMITS } from './message-limits.js';
export type { LimitOptions } from './message-limits.js';
export { ConcurrencyLimiter, RateLimiter } from './rate-limit.js';
export type { RateDecision, RateLimitOptions } from './rate-limit.js';
