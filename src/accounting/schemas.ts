/**
 * zod schemas and JSON Schema of the accounting extension's wire objects
 * (docs/extensions/accounting.md §2–§6). Decimals are strings; durations integer milliseconds.
 */
import { z } from 'zod';
import { DECIMAL_PATTERN, decimalsOf, toUnits } from './decimal.js';
import { CAIP_19, ENERGY_DECIMALS, ISO_4217 } from './quantities.js';

const decimal = z.string().regex(DECIMAL_PATTERN, 'a non-negative decimal string such as "0.10"');

/** Duration: `{ ms }`, a non-negative integer of milliseconds. */
export const DurationSchema = z.object({
  ms: z
    .number()
    .int()
    .nonnegative()
    .max(2 ** 53 - 1),
});

/** Energy: joules as a decimal string (at most 6 decimals) and how they were obtained. */
export const EnergySchema = z.object({
  joules: decimal.refine((v) => decimalsOf(v) <= ENERGY_DECIMALS, 'at most 6 decimals'),
  method: z.enum(['measured', 'estimated']),
});

/** Amount: a decimal string of an ISO 4217 or CAIP-19 asset with its decimals. */
export const AmountSchema = z
  .object({
    value: decimal,
    asset: z
      .string()
      .refine((a) => ISO_4217.test(a) || CAIP_19.test(a), 'an ISO 4217 code or CAIP-19 asset id'),
    decimals: z.number().int().min(0).max(36),
  })
  .refine((a) => fits(a.value, a.decimals), 'more decimal places than the asset has');

function fits(value: string, decimals: number): boolean {
  try {
    toUnits(value, decimals);
    return true;
  } catch {
    return false;
  }
}

/** A skill's price: any of a flat fee, a price per second run, a price per unit of output. */
export const PriceScheduleSchema = z.object({
  flat: AmountSchema.optional(),
  perSecond: AmountSchema.optional(),
  perUnit: AmountSchema.optional(),
  /** What one unit of output is ("word", "token", "image"). */
  unit: z.string().max(64).optional(),
});

/** A skill's energy estimate: joules per task and per second run. */
export const EnergyEstimateSchema = z.object({
  perTaskJoules: decimal.optional(),
  perSecondJoules: decimal.optional(),
});

/** The extension's `params` in the card: pricing per skill id. */
export const AccountingParamsSchema = z.object({
  skills: z.record(
    z.string(),
    z.object({ price: PriceScheduleSchema, energy: EnergyEstimateSchema.optional() }),
  ),
});

/** A quote: what running this task is expected to cost, bound to the task. */
export const QuoteSchema = z.object({
  quoteId: z.string().min(1),
  taskId: z.string().min(1),
  skill: z.string(),
  /** The most the agent expects to charge: what an authorization must cover. */
  amount: AmountSchema,
  duration: DurationSchema,
  energy: EnergySchema,
  price: PriceScheduleSchema,
  /** The estimated units of output the amount assumes (per-unit prices). */
  units: decimal.optional(),
  /** The bidder's terms (free text: refunds, quality, limits). */
  terms: z.string().max(4096).optional(),
  /** RFC 3339 time after which the quote no longer holds. */
  expiresAt: z.string(),
});

/** The claims of an authorization (the JWS payload, RFC 8785 canonical). */
export const AuthorizationClaimsSchema = z.object({
  /** Unique id: an authorization is used once. */
  jti: z.string().min(1),
  /** Who pays (a caller-chosen payer id, matched to the verification key). */
  iss: z.string().min(1),
  taskId: z.string().min(1),
  quoteId: z.string().min(1),
  /** base64url SHA-256 of the RFC 8785 form of the quote: the exact bid that was seen. */
  quoteDigest: z.string().min(1),
  /** The most the agent may charge. */
  cap: AmountSchema,
  /** Issued at and expiry, seconds since the epoch (RFC 7519). */
  iat: z.number().int(),
  exp: z.number().int(),
});

/** One step of a statement, as the agent reported it. */
export const StatementStepSchema = z.object({
  name: z.string(),
  duration: DurationSchema.optional(),
  energy: EnergySchema.optional(),
  units: decimal.optional(),
});

/** What the task cost: quote against actual. */
export const StatementSchema = z.object({
  taskId: z.string(),
  skill: z.string().optional(),
  quote: QuoteSchema.optional(),
  /** The authorization that was honoured (its id, payer and cap). */
  authorization: z.object({ jti: z.string(), iss: z.string(), cap: AmountSchema }).optional(),
  /** Measured by the server's clock, excluding time parked in INPUT_REQUIRED / AUTH_REQUIRED. */
  duration: DurationSchema,
  energy: EnergySchema,
  units: decimal,
  /** What the actual use priced at (may exceed the cap: then it is refused). */
  computed: AmountSchema.optional(),
  /** What was charged: `computed` within the cap, else zero. */
  charged: AmountSchema.optional(),
  /** `charged`; `refused` (above the cap); `void` (the task did not complete); `free` (unpriced): nothing charged but in the first. */
  outcome: z.enum(['charged', 'refused', 'free', 'void']),
  refusal: z.string().optional(),
  steps: z.array(StatementStepSchema),
  finalState: z.string(),
});

/** Names of the accounting wire objects with a JSON Schema. */
export const ACCOUNTING_OBJECTS = {
  Duration: DurationSchema,
  Energy: EnergySchema,
  Amount: AmountSchema,
  PriceSchedule: PriceScheduleSchema,
  EnergyEstimate: EnergyEstimateSchema,
  AccountingParams: AccountingParamsSchema,
  Quote: QuoteSchema,
  AuthorizationClaims: AuthorizationClaimsSchema,
  Statement: StatementSchema,
} as const;

/** The name of an accounting wire object. */
export type AccountingObjectName = keyof typeof ACCOUNTING_OBJECTS;

/** The JSON Schema (draft 2020-12) of one accounting object. */
export function accountingJsonSchema(name: AccountingObjectName): Record<string, unknown> {
  const schema = z.toJSONSchema(ACCOUNTING_OBJECTS[name], {
    target: 'draft-2020-12',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return { ...schema, $id: `urn:a2a-kit:extension:accounting:v1:schema:${name}`, title: name };
}

export type PriceSchedule = z.infer<typeof PriceScheduleSchema>;
export type EnergyEstimate = z.infer<typeof EnergyEstimateSchema>;
export type AccountingParams = z.infer<typeof AccountingParamsSchema>;
export type Quote = z.infer<typeof QuoteSchema>;
export type AuthorizationClaims = z.infer<typeof AuthorizationClaimsSchema>;
export type StatementStep = z.infer<typeof StatementStepSchema>;
export type Statement = z.infer<typeof StatementSchema>;
