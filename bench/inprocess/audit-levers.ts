/**
 * Where the audit chain's microseconds go (issue 20 point 2), on the links of real echo tasks:
 * the events are recorded from an audited server's write path, then each lever of the chain's
 * cost is timed alone (CPU µs per echo task of four links, best and median of 7 runs): the
 * RFC 8785 writer, the flattening of its text, SHA-256 by input (text, bytes) and output
 * (base64url, hex, Buffer), one hash per write instead of one per event, and what a store that
 * keeps events as JSON text pays with and without the chain's texts (CreateOptions.texts). Run:
 * `node bench/build.mjs && node dist/bench-run/bench/inprocess/audit-levers.js`.
 */
import { createHash, hash } from 'node:crypto';
import type { StreamResponse, Task } from '../../src/core/schemas/index.js';
import { canonicalEvent, canonicalLink, linkAround } from '../../src/security/audit-canonical.js';
import { chainHash } from '../../src/security/audit-chain.js';
import { A2AServer } from '../../src/server/index.js';
import { MemoryTaskStore } from '../../src/stores/memory/task-store.js';
import type { AppendOptions, CreateOptions, Scope, TaskStore } from '../../src/stores/types.js';
import { kitEcho } from '../servers/kit-agent.js';
import { echoParams } from '../servers/seed.js';

interface Link {
  seq: number;
  event: StreamResponse;
  hash: string;
}

// The memory store told to link on write (it derives its links on read: StoreFacets.linksOnRead),
// so the write path hashes the links this tool records.
const linked = new MemoryTaskStore({ linksOnRead: false });
const server = new A2AServer({ agent: kitEcho, logger: null, audit: true, store: linked });
const store: TaskStore = server.store;
const tasks: Link[][] = [];
const create = store.create.bind(store);
const append = store.append.bind(store);
store.create = (scope: Scope, task: Task, options?: CreateOptions) => {
  tasks.push([{ seq: 1, event: { task }, hash: options?.chain?.[0] ?? '' }]);
  return create(scope, task, options);
};
store.append = (scope, taskId, events, from, options?: AppendOptions) => {
  const links = tasks[tasks.length - 1] as Link[];
  events.forEach((event, i) => {
    links.push({ seq: from + i + 1, event, hash: options?.chain?.[i] ?? '' });
  });
  return append(scope, taskId, events, from, options);
};
for (let i = 0; i < 200; i++) await server.sendMessage(echoParams(i), {});

/** The link texts of each task, copied into flat strings. */
const flat = tasks.map((links) => {
  let prev = '';
  return links.map((l) => {
    const text = Buffer.from(canonicalLink(prev, l.seq, l.event)).toString();
    prev = l.hash;
    return text;
  });
});
const bytes = flat.map((texts) => texts.map((t) => Buffer.from(t)));

let sink: unknown;
let k = 0;
const CALLS = 20_000;
function bench(name: string, fn: (i: number) => void): void {
  for (let i = 0; i < 2_000; i++) fn(i % 200);
  const runs: number[] = [];
  for (let r = 0; r < 7; r++) {
    const start = process.cpuUsage();
    for (let i = 0; i < CALLS; i++) fn(i % 200);
    const used = process.cpuUsage(start);
    runs.push((used.user + used.system) / CALLS);
  }
  runs.sort((a, b) => a - b);
  const [best, median] = [runs[0] as number, runs[3] as number];
  console.log(`${name.padEnd(58)} ${best.toFixed(2).padStart(6)} ${median.toFixed(2).padStart(6)}`);
}

console.log(`${'per echo task (4 links)'.padEnd(58)}   best median (CPU µs)`);
bench('chainHash ×4 (what the write path runs)', (i) => {
  let prev = '';
  for (const l of tasks[i] as Link[]) prev = chainHash(prev, l.seq, l.event);
  sink = prev;
});
bench('canonicalLink ×4 (the RFC 8785 writer alone)', (i) => {
  for (const l of tasks[i] as Link[]) sink = canonicalLink(l.hash, l.seq, l.event);
});
bench('canonicalLink ×4, each text flattened', (i) => {
  for (const l of tasks[i] as Link[]) {
    const text = canonicalLink(l.hash, l.seq, l.event);
    text.charCodeAt(0);
    sink = text;
  }
});
bench('canonicalLink ×4 + SHA-256 of each (text, base64url)', (i) => {
  for (const l of tasks[i] as Link[])
    sink = hash('sha256', canonicalLink(l.hash, l.seq, l.event), 'base64url');
});
const each = (fn: (text: string, data: Buffer) => unknown) => (i: number) => {
  const texts = flat[k++ % 200] as string[];
  const data = bytes[i] as Buffer[];
  for (let j = 0; j < texts.length; j++) sink = fn(texts[j] as string, data[j] as Buffer);
};
bench(
  'SHA-256 ×4 of flat texts, base64url',
  each((t) => hash('sha256', t, 'base64url')),
);
bench(
  'SHA-256 ×4 of flat texts, hex',
  each((t) => hash('sha256', t, 'hex')),
);
bench(
  'SHA-256 ×4 of flat texts, Buffer digest',
  each((t) => hash('sha256', t, 'buffer')),
);
bench(
  'SHA-256 ×4 of the UTF-8 bytes (already encoded)',
  each((_, b) => hash('sha256', b, 'hex')),
);
bench(
  'UTF-8 encode + SHA-256 ×4 of the bytes',
  each((t) => hash('sha256', Buffer.from(t), 'base64url')),
);
bench('SHA-256 ×4 of a 43-character text (the per-call cost)', (i) => {
  for (const l of tasks[i] as Link[]) sink = hash('sha256', l.hash, 'base64url');
});
bench('SHA-256 ×2 of flat texts (one per write: 1 + 3 links)', () => {
  const [a, b, c, d] = flat[k++ % 200] as string[];
  sink = hash('sha256', a as string, 'base64url');
  sink = hash('sha256', (b as string) + c + d, 'base64url');
});
bench('JSON.stringify ×4 of the events (for comparison)', (i) => {
  for (const l of tasks[i] as Link[]) sink = JSON.stringify(l.event);
});
// What a store that keeps events as JSON text pays (SQLite: the row's text, UTF-8 encoded when
// bound), without the chain and with it, the chain's texts reused (CreateOptions.texts) or not.
let length = 0;
bench('rows: JSON.stringify ×4 + UTF-8 length (audit off)', (i) => {
  for (const l of tasks[i] as Link[]) length += Buffer.byteLength(JSON.stringify(l.event));
});
bench('rows: chainHash ×4, then JSON.stringify + UTF-8 length', (i) => {
  let prev = '';
  for (const l of tasks[i] as Link[]) {
    prev = chainHash(prev, l.seq, l.event);
    length += Buffer.byteLength(JSON.stringify(l.event));
  }
});
bench('rows: chainHash ×4 keeping the texts, their UTF-8 length', (i) => {
  const texts: (string | undefined)[] = [];
  let prev = '';
  for (const l of tasks[i] as Link[]) prev = chainHash(prev, l.seq, l.event, texts);
  for (const t of texts) length += Buffer.byteLength(t ?? '');
});
bench('rows: … the event text flattened before its link is hashed', (i) => {
  let prev = '';
  for (const l of tasks[i] as Link[]) {
    const e = canonicalEvent(l.event) as string;
    length += e.charCodeAt(0);
    prev = hash('sha256', linkAround(prev, l.seq, e), 'base64url');
    length += Buffer.byteLength(e);
  }
});
bench('rows: … one incremental SHA-256 per link (3 updates)', (i) => {
  let prev = '';
  for (const l of tasks[i] as Link[]) {
    const e = canonicalEvent(l.event) as string;
    prev = createHash('sha256')
      .update('{"event":')
      .update(e)
      .update(`,"prev":"${prev}","seq":${l.seq}}`)
      .digest('base64url');
    length += Buffer.byteLength(e);
  }
});
bench('rows: the RFC 8785 texts, no hash, + UTF-8 length', (i) => {
  for (const l of tasks[i] as Link[]) {
    const e = canonicalEvent(l.event) as string;
    length += linkAround(l.hash, l.seq, e).length + Buffer.byteLength(e);
  }
});
void length;
void sink;
process.exit(0);
