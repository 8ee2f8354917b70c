/**
 * What the intake keeps per message a caller sent, in this process: the attempts still under way
 * (so concurrent copies share one) and the stateless replies (so a retry gets the same answer).
 * Entries are found by the caller and messageId (a map key), then by content: a message is
 * compared with another of the same key by its canonical text (fingerprint.ts), made only then,
 * so a message whose messageId is fresh costs no canonical form and no hash. Several messages of
 * one key (a messageId reused for other content) are chained, newest first.
 */
import { ShortLivedMap } from '../core/short-lived-map.js';
import type { Message, Task } from '../core/schemas/index.js';
import {
  isReference,
  messageFingerprint,
  messageText,
  sentMessage,
  textFingerprint,
} from './fingerprint.js';

/** A sent message, compared by its canonical text or its fingerprint, each made on first use. */
export class SentMessage {
  private text: string | undefined;
  private hash: string | undefined;

  constructor(private message: Message | undefined) {}

  /** The same message (same canonical text, or fingerprint once this one dropped its message). */
  same(other: SentMessage): boolean {
    if (this.message === undefined || other.message === undefined) {
      return this.fingerprint() === other.fingerprint();
    }
    return this.textOf() === other.textOf();
  }

  /** Keeps only the fingerprint: the message (however large) is no longer held. */
  materialize(): void {
    this.fingerprint();
    this.message = undefined;
    this.text = undefined;
  }

  private textOf(): string {
    return (this.text ??= messageText(this.message as Message));
  }

  /** The message's fingerprint (fingerprint.ts), made once. */
  fingerprint(): string {
    // From the text when it is there already (one canonical form per message, at most).
    this.hash ??=
      this.text === undefined
        ? messageFingerprint(this.message as Message)
        : textFingerprint(this.text);
    return this.hash;
  }
}

/** One kept entry. */
export interface Kept<T> {
  readonly key: string;
  readonly sent: SentMessage;
  readonly value: T;
  /** The next older entry of the same key. */
  next: Kept<T> | undefined;
}

/** Entries by key and content; optionally in the order they were added (oldest first). */
export class SentMessages<T> {
  /** Short-lived entries in a long-lived map: see core/short-lived-map.ts. */
  private readonly byKey = new ShortLivedMap<string, Kept<T>>();
  private readonly order: Set<Kept<T>> | undefined;
  private count = 0;

  constructor(options: { ordered?: boolean } = {}) {
    this.order = options.ordered ? new Set() : undefined;
  }

  /** Number of entries. */
  get size(): number {
    return this.count;
  }

  /** True when some entry has this key (no comparison made). */
  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** The entry of this key whose message is the same as `sent`. */
  find(key: string, sent: SentMessage): Kept<T> | undefined {
    for (let kept = this.byKey.get(key); kept !== undefined; kept = kept.next) {
      if (kept.sent.same(sent)) return kept;
    }
    return undefined;
  }

  /** Adds an entry (the caller removed any entry of the same message it replaces). */
  add(key: string, sent: SentMessage, value: T): Kept<T> {
    const kept: Kept<T> = { key, sent, value, next: this.byKey.get(key) };
    this.byKey.set(key, kept);
    this.order?.add(kept);
    this.count++;
    return kept;
  }

  /** Removes an entry (nothing when it is gone already). */
  delete(kept: Kept<T>): void {
    let head = this.byKey.get(kept.key);
    if (head === kept) {
      if (kept.next === undefined) this.byKey.delete(kept.key);
      else this.byKey.set(kept.key, kept.next);
    } else {
      while (head !== undefined && head.next !== kept) head = head.next;
      if (head === undefined) return;
      head.next = kept.next;
    }
    this.order?.delete(kept);
    this.count--;
  }

  /** The oldest entry (ordered maps only). */
  oldest(): Kept<T> | undefined {
    if (this.order === undefined) return undefined;
    for (const kept of this.order) return kept;
    return undefined;
  }
}

/**
 * True when the message indexed with `token` (`IndexedMessage.fingerprint`) for `task` is the
 * same message as `sent`: rebuilt from the task's history (a history reference) or compared by
 * fingerprint (fingerprint.ts).
 */
export function isRetry(token: string, task: Task, sent: SentMessage): boolean {
  if (!isReference(token)) return sent.fingerprint() === token;
  const original = sentMessage(token, task);
  return original !== undefined && new SentMessage(original).same(sent);
}
