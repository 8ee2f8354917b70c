/** `a2a-kit/delegation`: Contract Net and Request-When over A2A (docs/extensions/delegation.md). */
export { contractNet } from './contract-net.js';
export type { ContractNetOptions, ContractNetRun } from './contract-net.js';
export { rankBids } from './policies.js';
export type { RankPolicy } from './policies.js';
export type { Bid, ContractNetEvent, ContractNetResult } from './types.js';
export { MemoryRequestWhenStore, requestWhen, resumeRequestWhen } from './request-when.js';
export type {
  RequestWhenOptions,
  RequestWhenRecord,
  RequestWhenStore,
  WhenCondition,
} from './request-when.js';
