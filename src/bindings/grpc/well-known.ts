/**
 * The protobuf well-known types A2A uses, between their ProtoJSON form (our domain objects) and
 * proto-loader objects: Struct and Value (any JSON), Timestamp (RFC 3339 string), Empty.
 */
import { A2AError } from '../../core/errors.js';
import type { ProtoObject } from './proto.js';

/** Fully qualified names of the well-known types with a special JSON form. */
export const STRUCT = 'google.protobuf.Struct';
/** google.protobuf.Value: any JSON value. */
export const VALUE = 'google.protobuf.Value';
/** google.protobuf.Timestamp: an RFC 3339 string in JSON. */
export const TIMESTAMP = 'google.protobuf.Timestamp';
/** google.protobuf.ListValue: a JSON array. */
export const LIST_VALUE = 'google.protobuf.ListValue';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON object as google.protobuf.Struct. */
export function structToProto(value: Record<string, unknown>): ProtoObject {
  const fields: Record<string, ProtoObject> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item !== undefined) fields[key] = valueToProto(item);
  }
  return { fields };
}

/** Any JSON value as google.protobuf.Value. */
export function valueToProto(value: unknown): ProtoObject {
  if (value === null || value === undefined) return { nullValue: 'NULL_VALUE' };
  if (typeof value === 'number') return { numberValue: value };
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'bigint') return { numberValue: Number(value) };
  if (Array.isArray(value)) return { listValue: { values: value.map(valueToProto) } };
  if (isRecord(value)) return { structValue: structToProto(value) };
  // Functions and symbols have no JSON form: like JSON.stringify in an array, they become null.
  return { nullValue: 'NULL_VALUE' };
}

/** google.protobuf.Struct as a JSON object. */
export function structFromProto(value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const fields = isRecord(value) ? value.fields : undefined;
  if (isRecord(fields)) {
    for (const [key, item] of Object.entries(fields)) out[key] = valueFromProto(item);
  }
  return out;
}

/** google.protobuf.Value as a JSON value (a Value with no kind reads as null). */
export function valueFromProto(value: unknown): unknown {
  if (!isRecord(value)) return null;
  if (value.numberValue !== undefined) return value.numberValue;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.structValue !== undefined) return structFromProto(value.structValue);
  if (value.listValue !== undefined) return listFromProto(value.listValue);
  return null;
}

/** google.protobuf.ListValue as a JSON array. */
export function listFromProto(value: unknown): unknown[] {
  const values = isRecord(value) ? value.values : undefined;
  return Array.isArray(values) ? values.map(valueFromProto) : [];
}

/** An RFC 3339 timestamp as google.protobuf.Timestamp (millisecond precision, like our model). */
export function timestampToProto(value: unknown, field: string): ProtoObject {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new A2AError('INVALID_PARAMS', `${field} must be an RFC 3339 timestamp`, {
      fieldViolations: [{ field, description: 'must be an RFC 3339 timestamp' }],
    });
  }
  const seconds = Math.floor(ms / 1000);
  return { seconds, nanos: (ms - seconds * 1000) * 1_000_000 };
}

/**
 * google.protobuf.Timestamp as `2025-10-28T10:30:00.000Z` (spec §5.6.1). An out-of-range value
 * becomes a string the validator rejects, naming the field, rather than a silent drop.
 */
export function timestampFromProto(value: unknown): string {
  const seconds = isRecord(value) ? Number(value.seconds ?? 0) : Number.NaN;
  const nanos = isRecord(value) ? Number(value.nanos ?? 0) : 0;
  const date = new Date(seconds * 1000 + Math.floor(nanos / 1_000_000));
  return Number.isNaN(date.getTime())
    ? `invalid timestamp (seconds ${seconds})`
    : date.toISOString();
}
