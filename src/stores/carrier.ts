/**
 * Reading back a stored trace context (TraceCarrier, kept as JSON text by the durable push
 * outboxes): anything that is not an object of strings is dropped, never thrown.
 */
import type { TraceCarrier } from './types.js';

/** `{ trace }` for a stored carrier, `{}` when there is none or it does not read as one. */
export function carrier(json: string | null | undefined): { trace?: TraceCarrier } {
  if (json === null || json === undefined) return {};
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    const trace: Record<string, string> = {};
    for (const [k, v] of Object.entries(value)) if (typeof v === 'string') trace[k] = v;
    return { trace };
  } catch {
    return {};
  }
}
