/**
 * The accounting extension's identity (docs/extensions/accounting.md §1): its URI, its card
 * entry, and where its objects sit in message, status and task metadata.
 */
import type { AgentExtension } from '../core/schemas/index.js';
import type { AccountingParams } from './schemas.js';

/** The extension URI: the `A2A-Extensions` value and the metadata key (our own namespace). */
export const ACCOUNTING_EXTENSION = 'urn:a2a-kit:extension:accounting:v1';

/** The card entry of a priced agent: required by default (spec §4.6.2), pricing in `params`. */
export function accountingExtension(params: AccountingParams, required = true): AgentExtension {
  return {
    uri: ACCOUNTING_EXTENSION,
    description:
      'Service accounting: quotes, signed authorizations and statements (Duration, Energy, ' +
      'Amount). Ask a quote with metadata {"quote":true}; see docs/extensions/accounting.md.',
    required,
    params: params,
  };
}

/** What a client puts in `message.metadata[ACCOUNTING_EXTENSION]`. */
export interface AccountingRequest {
  /** Ask for a quote: the task answers INPUT_REQUIRED with it. */
  quote?: boolean;
  /** The skill to price (default: the agent's only priced skill). */
  skill?: string;
  /** The compact JWS authorizing the quoted task. */
  authorization?: string;
  /** Units of output the quote should assume (per-unit prices; default the agent's estimate). */
  units?: string;
}

/** The extension's object in `metadata`, if any. */
export function accountingMetadata(
  metadata: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const value = metadata?.[ACCOUNTING_EXTENSION];
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
