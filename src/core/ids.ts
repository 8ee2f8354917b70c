/** Identifier generation: opaque random UUIDs (spec §3.4). */

/** A new random identifier (UUID v4). */
export function newId(): string {
  return globalThis.crypto.randomUUID();
}

/** The current time as a spec timestamp: UTC, `Z`, millisecond precision (spec §5.6.1). */
export function now(): string {
  return new Date().toISOString();
}
