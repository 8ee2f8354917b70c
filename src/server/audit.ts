/**
 * The audit trail of the server's tasks (A2AServerOptions.audit; docs/trust.md): the write path
 * (task-log.ts) links every event into its task's hash chain (security/audit-chain.ts) and the
 * store keeps each link's hash with the event; GetTask with the audit extension activated returns
 * the chain, its head signed with the server's key, in `Task.metadata[AUDIT_EXTENSION]`. So the
 * export is exactly as protected as GetTask: same authentication, a caller sees only its tasks.
 * On a store in the server's heap (`StoreFacets.linksOnRead`: memory) the links are hashed from
 * the log when it is read instead: the same chain, and nothing outside the process could have
 * changed an event between its write and its read for a write-time hash to catch.
 */
import { A2AError } from '../core/errors.js';
import { after } from '../core/maybe-async.js';
import type { AgentExtension, StreamResponse, Task } from '../core/schemas/index.js';
import {
  AUDIT_EXTENSION,
  GENESIS_HASH,
  chainHash,
  type ChainHead,
  type ChainLink,
} from '../security/audit-chain.js';
import { signHead, type AuditSigner } from '../security/audit-head.js';
import type { LogEntry, Scope, TaskStore } from '../stores/types.js';

export { AUDIT_EXTENSION };

/** The card declaration the server adds when audit is on. */
export const auditExtension: AgentExtension = {
  uri: AUDIT_EXTENSION,
  description:
    'Tamper-evident task history: GetTask with this extension returns metadata[uri] = { links: [{ seq, prev, hash, event }], head: { taskId, seq, hash, jws?, kid?, jku? } } (`a2a audit export`).',
  required: false,
};

/** What GetTask returns under `metadata[AUDIT_EXTENSION]`. */
export interface AuditTrail {
  readonly links: ChainLink[];
  readonly head: ChainHead;
}

/** Chain heads remembered per task, so an append needs no read of the previous hash. */
const REMEMBERED = 10_000;

/** Computes the links of each write; the store persists them (`CreateOptions.chain`). */
export class AuditChain {
  private readonly heads = new Map<string, { seq: number; hash: string }>();
  /** False when the store derives the links on read (StoreFacets.linksOnRead). */
  readonly onWrite: boolean;

  constructor(private readonly store: TaskStore) {
    this.onWrite = store.facets?.linksOnRead !== true;
  }

  /**
   * The hash of a new task's creation snapshot (seq 1); its canonical text is pushed onto
   * `texts` (CreateOptions.texts), as {@link appending} pushes those of the events.
   */
  created(task: Task, texts?: (string | undefined)[]): string[] {
    const hash = chainHash(GENESIS_HASH, 1, { task }, texts);
    this.remember(task.id, 1, hash);
    return [hash];
  }

  /**
   * The hashes of a new task's snapshot (seq 1) and of `events` recorded with it in one write
   * (TaskStore.createWith), their texts onto `texts`. Nothing is remembered until the write is
   * durable ({@link appended}); a task that finishes in it never is.
   */
  createdWith(
    task: Task,
    events: readonly StreamResponse[],
    texts: (string | undefined)[],
  ): string[] {
    const hashes = [chainHash(GENESIS_HASH, 1, { task }, texts)];
    return links(hashes[0] as string, 1, events, texts, hashes);
  }

  /**
   * The hashes of `events` appended after seq `from`; undefined when the task has no chain (it was
   * created while audit was off): its log then stays unlinked.
   */
  appending(
    scope: Scope,
    taskId: string,
    from: number,
    events: readonly StreamResponse[],
    texts?: (string | undefined)[],
  ): string[] | undefined | Promise<string[] | undefined> {
    const head = this.heads.get(taskId);
    // The common case (this instance wrote the task last) reads nothing and awaits nothing.
    if (head?.seq === from) return links(head.hash, from, events, texts);
    return after(this.store.events(scope, taskId, from - 1, 1), ([entry]) => {
      if (entry?.seq !== from || entry.hash === undefined) return undefined;
      return links(entry.hash, from, events, texts);
    });
  }

  /**
   * The write of `hashes` after `from` is durable: the task's head moved. A finished task takes
   * no more appends (but a message index): its head is forgotten.
   */
  appended(taskId: string, from: number, hashes: readonly string[], finished: boolean): void {
    const last = hashes[hashes.length - 1];
    if (finished) this.heads.delete(taskId);
    else if (last !== undefined) this.remember(taskId, from + hashes.length, last);
  }

  /** Remembers a head; past REMEMBERED tasks, the one remembered first is dropped. */
  private remember(taskId: string, seq: number, hash: string): void {
    const head = this.heads.get(taskId);
    if (head !== undefined) {
      head.seq = seq;
      head.hash = hash;
      return;
    }
    this.heads.set(taskId, { seq, hash });
    if (this.heads.size > REMEMBERED) {
      const oldest = this.heads.keys().next().value;
      if (oldest !== undefined) this.heads.delete(oldest);
    }
  }
}

/** The hashes of `events` linked after `hash` (the link at seq `from`); their texts onto `texts`. */
function links(
  hash: string,
  from: number,
  events: readonly StreamResponse[],
  texts: (string | undefined)[] | undefined,
  hashes: string[] = [],
): string[] {
  for (let i = 0; i < events.length; i++) {
    hash = chainHash(hash, from + i + 1, events[i], texts);
    hashes.push(hash);
  }
  return hashes;
}

/** Entries read per page while exporting. */
const PAGE = 500;

/**
 * The task's chain as stored, with its head signed when a signer is given. Refuses a task whose
 * log is not (wholly) linked: it was recorded while audit was off. On a store that derives the
 * links on read (StoreFacets.linksOnRead), every link is hashed here from its event.
 */
export async function auditTrail(
  store: TaskStore,
  scope: Scope,
  taskId: string,
  signer: AuditSigner | undefined,
): Promise<AuditTrail> {
  const links: ChainLink[] = [];
  const onRead = store.facets?.linksOnRead === true;
  let prev = GENESIS_HASH;
  for (let after = 0; ;) {
    const page: LogEntry[] = await store.events(scope, taskId, after, PAGE);
    for (const entry of page) {
      if (onRead) {
        const hash = chainHash(prev, entry.seq, entry.event);
        links.push({ seq: entry.seq, prev, hash, event: entry.event });
        prev = hash;
        continue;
      }
      if (entry.hash === undefined) {
        throw new A2AError(
          'UNSUPPORTED_OPERATION',
          `Task ${taskId} has no audit chain from seq ${entry.seq} on: it was recorded while audit was off (A2AServer option audit)`,
          { metadata: { taskId } },
        );
      }
      links.push({ seq: entry.seq, prev, hash: entry.hash, event: entry.event });
      prev = entry.hash;
    }
    if (page.length < PAGE) break;
    after = (page[page.length - 1] as LogEntry).seq;
  }
  const seq = links.length === 0 ? 0 : (links[links.length - 1] as ChainLink).seq;
  const head: ChainHead = signer
    ? {
        taskId,
        seq,
        hash: prev,
        jws: await signHead({ taskId, seq, hash: prev }, signer),
        kid: signer.kid,
        ...(signer.jku === undefined ? {} : { jku: signer.jku }),
      }
    : { taskId, seq, hash: prev };
  return { links, head };
}
