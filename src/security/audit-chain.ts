/**
 * The audit chain of a task (docs/trust.md): every event of the task's log is one link, whose
 * hash is the SHA-256 (URL-safe base64) of the RFC 8785 canonical form of
 * `{ "event": <the StreamResponse>, "prev": <hash of the link before, "" for seq 1>, "seq": n }`.
 * Changing, dropping or reordering an event changes every hash after it. This module computes
 * links and checks an exported chain; it knows nothing of stores or HTTP. Runtime-neutral.
 */
import {
  canonicalEvent,
  canonicalLink,
  eventInLink,
  linkAround,
  notePlainHash,
} from './audit-canonical.js';
import { sha256Base64Url } from './sha256.js';

/** The audit extension URI: GetTask with it activated returns the task's chain (server/audit.ts). */
export const AUDIT_EXTENSION = 'urn:a2a-kit:extension:audit:v1';

/** The `prev` of the first link (seq 1, the creation snapshot). */
export const GENESIS_HASH = '';

/** The format name on the first line of an export file. */
export const AUDIT_EXPORT_FORMAT = 'a2a-kit.audit.v1';

/**
 * The hash of link `seq`: SHA-256 of the canonical `{ event, prev, seq }`. A value RFC 8785 has
 * no form for (a lone surrogate in a string) is hashed in its plain JSON text instead, which the
 * export keeps in the same member order.
 */
export function chainHash(
  prev: string,
  seq: number,
  event: unknown,
  texts?: (string | undefined)[],
): string {
  let text: string;
  // With `texts`, the event's canonical text is pushed onto it (undefined where it has none):
  // a store may keep it as the event's JSON instead of stringifying the event again.
  let eventText: string | undefined;
  try {
    eventText = canonicalEvent(event);
    text =
      eventText === undefined ? canonicalLink(prev, seq, event) : linkAround(prev, seq, eventText);
  } catch {
    eventText = undefined;
    text = JSON.stringify({ event, prev, seq });
  }
  const hash = sha256Base64Url(text);
  // Hashing made the link's text one flat string: the event's text the store keeps is a slice of
  // it (no copy), not the pieces the writer joined, which the store would copy once more.
  texts?.push(eventText === undefined ? undefined : eventInLink(text, eventText.length));
  notePlainHash(hash);
  return hash;
}

/** One link as exported: the event with its position and the hashes it commits to. */
export interface ChainLink {
  readonly seq: number;
  readonly prev: string;
  readonly hash: string;
  readonly event: unknown;
}

/** The last link of a chain, optionally signed by the server (a compact JWS, see audit-head.ts). */
export interface ChainHead {
  readonly taskId: string;
  readonly seq: number;
  readonly hash: string;
  /** Compact JWS over `{ taskId, seq, hash, iat }` with the server's card signing key. */
  readonly jws?: string | undefined;
  /** The key id of the signature (also in the JWS header). */
  readonly kid?: string | undefined;
  /** Where the server publishes its public keys (a JWKS URL), when it said. */
  readonly jku?: string | undefined;
}

/** What a line of an export file holds (JSON Lines: a header, the links, the head). */
export type ExportLine =
  | {
      readonly type: 'header';
      readonly format: string;
      readonly taskId: string;
      readonly exportedAt: string;
    }
  | ({ readonly type: 'event' } & ChainLink)
  | ({ readonly type: 'head' } & ChainHead);

/** The export file's lines as text (one JSON document per line, `\n` after each). */
export function exportLines(taskId: string, links: readonly ChainLink[], head: ChainHead): string {
  const lines: ExportLine[] = [
    { type: 'header', format: AUDIT_EXPORT_FORMAT, taskId, exportedAt: new Date().toISOString() },
    ...links.map((link) => ({ type: 'event' as const, ...link })),
    { type: 'head', ...head },
  ];
  return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
}

/** What {@link checkChain} found: the chain as read, and its first problem if any. */
export interface ChainCheck {
  readonly taskId: string | undefined;
  readonly links: readonly ChainLink[];
  readonly head: ChainHead | undefined;
  /** The first problem, naming the event (`event seq 3 was modified …`); undefined: intact. */
  readonly problem: string | undefined;
  /** The seq of the event the problem is about, when it is about one. */
  readonly seq?: number | undefined;
}

/**
 * Checks an export file's text offline (not the head's signature: see audit-head.ts): the lines
 * parse, seqs run 1, 2, 3 … with none missing or out of order, every link's hash is the hash of
 * its content and commits to the link before, and the head is the last link.
 */
export function checkChain(text: string): ChainCheck {
  const parsed: ExportLine[] = [];
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  for (let i = 0; i < lines.length; i++) {
    try {
      parsed.push(JSON.parse(lines[i] as string) as ExportLine);
    } catch {
      return fail(undefined, [], undefined, `line ${i + 1} is not JSON: the file is damaged`);
    }
  }
  const header = parsed[0];
  if (header?.type !== 'header' || header.format !== AUDIT_EXPORT_FORMAT) {
    return fail(
      undefined,
      [],
      undefined,
      `the first line is not an ${AUDIT_EXPORT_FORMAT} header: is this a file written by \`a2a audit export\`?`,
    );
  }
  const taskId = header.taskId;
  const links = parsed.filter((l): l is ExportLine & { type: 'event' } => l.type === 'event');
  const heads = parsed.filter((l): l is ExportLine & { type: 'head' } => l.type === 'head');
  const head = heads[heads.length - 1];
  const seqs = new Set(links.map((l) => l.seq));
  let prev = GENESIS_HASH;
  for (let i = 0; i < links.length; i++) {
    const link = links[i] as ChainLink;
    const expected = i + 1;
    if (link.seq !== expected) {
      const missing = seqs.has(expected)
        ? `event seq ${expected} was reordered: it comes after seq ${links[i - 1]?.seq ?? 'the header'} instead of before seq ${link.seq}`
        : `event seq ${expected} was dropped: seq ${link.seq} follows seq ${expected - 1}`;
      return fail(taskId, links, head, missing, expected);
    }
    if (chainHash(link.prev, link.seq, link.event) !== link.hash) {
      return fail(
        taskId,
        links,
        head,
        `event seq ${link.seq} was modified: its content does not match its hash`,
        link.seq,
      );
    }
    if (link.prev !== prev) {
      return fail(
        taskId,
        links,
        head,
        `event seq ${expected - 1} was modified: seq ${link.seq} commits to another hash of it`,
        expected - 1,
      );
    }
    prev = link.hash;
  }
  if (head === undefined) {
    return fail(taskId, links, head, 'the head line is missing: the end of the file was dropped');
  }
  const last = links[links.length - 1];
  if (head.taskId !== taskId) {
    return fail(taskId, links, head, `the head is of task ${head.taskId}, not ${taskId}`);
  }
  if (head.seq !== (last?.seq ?? 0) || head.hash !== prev) {
    const dropped = head.seq > (last?.seq ?? 0);
    return fail(
      taskId,
      links,
      head,
      dropped
        ? `event seq ${(last?.seq ?? 0) + 1} was dropped: the head is seq ${head.seq} but the events end at seq ${last?.seq ?? 0}`
        : `the head (seq ${head.seq}) is not the hash of the last event (seq ${last?.seq ?? 0}): the chain was rewritten`,
      dropped ? (last?.seq ?? 0) + 1 : undefined,
    );
  }
  return { taskId, links, head, problem: undefined };
}

function fail(
  taskId: string | undefined,
  links: readonly ChainLink[],
  head: ChainHead | undefined,
  problem: string,
  seq?: number,
): ChainCheck {
  return { taskId, links, head, problem, ...(seq === undefined ? {} : { seq }) };
}
