/**
 * `a2a-kit/accounting`: the service-accounting extension (docs/extensions/accounting.md) —
 * Duration, Energy and Amount; priced, metered agents; quotes, signed authorizations and
 * statements.
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
export { AccountedTaskHandle } from './meter.js';
export type { UsageReport } from './meter.js';
export { createPricedAgent, quoteOf, statementOf } from './priced-agent.js';
export type {
  AccountingOptions,
  AccountingRecord,
  PricedAgent,
  PricedExecutionContext,
  SkillPricing,
} from './priced-agent.js';
export {
  accountingOf,
  requestQuote,
  sendAuthorized,
  withAccountingExtension,
  withAccountingRequest,
} from './client.js';
export type { QuoteOptions, Quoted, SendAuthorizedOptions } from './client.js';
export { listStatements } from './statements.js';
export type { StatementRow } from './statements.js';
