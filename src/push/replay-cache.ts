/**
 * Remembers the `jti` of accepted push signatures until they expire, so a captured delivery
 * cannot be played again. The default keeps them in process memory; share one (Redis, a table)
 * between webhook instances behind a load balancer.
 */

/** A set of seen ids with expiry. */
export interface ReplayCache {
  /** Records `id` until `expiresAtMs`; false when it was already recorded (a replay). */
  add(id: string, expiresAtMs: number): boolean | Promise<boolean>;
}

/** An in-memory ReplayCache with a size cap (the oldest entries go first). */
export class MemoryReplayCache implements ReplayCache {
  private readonly seen = new Map<string, number>();

  constructor(private readonly maxEntries = 100_000) {}

  add(id: string, expiresAtMs: number): boolean {
    const now = Date.now();
    const known = this.seen.get(id);
    if (known !== undefined && known > now) return false;
    this.seen.delete(id);
    this.seen.set(id, expiresAtMs);
    this.sweep(now);
    return true;
  }

  /** Number of ids held. */
  get size(): number {
    return this.seen.size;
  }

  private sweep(now: number): void {
    // Entries are roughly in expiry order (same lifetime): drop expired ones from the front.
    for (const [id, expires] of this.seen) {
      if (expires > now && this.seen.size <= this.maxEntries) break;
      this.seen.delete(id);
    }
  }
}
