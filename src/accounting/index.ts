/**
 * `a2a-kit/accounting`: the service-accounting extension (docs/extensions/accounting.md) —
 * Duration, Energy and Amount; quotes, signed authorizations and statements; the client side.
 * An agent is priced and metered with `createAgent({ accounting })` (a2a-kit/server).
 */
export {
  AssetMismatchError,
  CAIP_19,
  ENERGY_DECIMALS,
  ISO_4217,
  addAmounts,
  addDurations,
  addEnergy,
  amount,
  amountUnits,
  compareAmounts,
  duration,
  energy,
  formatAmount,
  fromAmountUnits,
  parseAmount,
  scaleAmount,
  subtractAmounts,
  zeroOf,
} from './quantities.js';
export type { Amount, Duration, Energy, EnergyMethod } from './quantities.js';
export { DecimalError } from './decimal.js';
export {
  ACCOUNTING_OBJECTS,
  AccountingParamsSchema,
  AmountSchema,
  AuthorizationClaimsSchema,
  DurationSchema,
  EnergyEstimateSchema,
  EnergySchema,
  PriceScheduleSchema,
  QuoteSchema,
  StatementSchema,
  StatementStepSchema,
  accountingJsonSchema,
} from './schemas.js';
export type {
  AccountingObjectName,
  AccountingParams,
  AuthorizationClaims,
  EnergyEstimate,
  PriceSchedule,
  Quote,
  Statement,
  StatementStep,
} from './schemas.js';
export { ACCOUNTING_EXTENSION, accountingExtension, accountingMetadata } from './extension.js';
export type { AccountingRequest } from './extension.js';
export { estimateEnergy, priceOf, scheduleAsset } from './pricing.js';
export {
  AuthorizationError,
  authorize,
  quoteDigest,
  signClaims,
  verifyAuthorization,
} from './authorization.js';
export type {
  AuthorizationRefusal,
  AuthorizeOptions,
  PayerKey,
  PayerKeys,
  VerifyAuthorizationOptions,
} from './authorization.js';
export type { MeterState, UsageReport } from './meter.js';
export type { AccountingOptions, SkillPricing } from './options.js';
export { quoteOf, recordOf, statementOf } from './record.js';
export type { AccountingRecord } from './record.js';
export {
  accountingOf,
  requestQuote,
  sendAuthorized,
  withAccountingExtension,
  withAccountingRequest,
} from '../client/accounting.js';
export type { QuoteOptions, Quoted, SendAuthorizedOptions } from '../client/accounting.js';
export { listStatements } from '../client/accounting-statements.js';
export type { StatementRow } from '../client/accounting-statements.js';
