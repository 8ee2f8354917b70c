/**
 * The audit chain part of the TaskStore conformance suite (AppendOptions.chain, LogEntry.hash):
 * a store keeps the hash the write gives with each event and returns it from `events`, exactly,
 * in the same write; a refused write keeps none; events written without one have none. The
 * hashes themselves are the server's business (server/audit.ts): the store only persists them.
 */
import { describe, expect, it } from 'vitest';
import { chainHash, GENESIS_HASH } from '../security/audit-chain.js';
import type { StreamResponse } from '../core/schemas/index.js';
import type { TaskStore } from '../stores/types.js';
import {
  agentText,
  artifactEvent,
  freshScopes,
  newTask,
  statusEvent,
  textArtifact,
  attempt,
} from './store-fixtures.js';

/** Registers the audit chain tests. */
export function describeAuditChain(store: () => TaskStore): void {
  describe('audit chain hashes', () => {
    it('keeps the hash of each event given at create and append, and returns it from events()', async () => {
      const { scope } = freshScopes();
      const task = newTask({});
      const first = chainHash(GENESIS_HASH, 1, { task });
      await store().create(scope, task, { chain: [first] });
      const batches: StreamResponse[][] = [
        [statusEvent(task, 'TASK_STATE_WORKING')],
        [
          artifactEvent(task, textArtifact('a1', 'one')),
          artifactEvent(task, textArtifact('a2', 'two')),
        ],
        [statusEvent(task, 'TASK_STATE_COMPLETED', { message: agentText('done') })],
      ];
      const hashes = [first];
      let seq = 1;
      for (const events of batches) {
        const chain = events.map((e, i) => chainHash(hashes[hashes.length - 1]!, seq + i + 1, e));
        // each link commits to the one before it
        for (let i = 1; i < chain.length; i++) {
          chain[i] = chainHash(chain[i - 1]!, seq + i + 1, events[i]);
        }
        seq = await store().append(scope, task.id, events, seq, { chain });
        hashes.push(...chain);
      }
      const log = await store().events(scope, task.id, 0);
      expect(log.map((e) => e.hash)).toEqual(hashes);
      // and a page from the middle carries the same hashes
      const page = await store().events(scope, task.id, 2, 2);
      expect(page.map((e) => [e.seq, e.hash])).toEqual([
        [3, hashes[2]],
        [4, hashes[3]],
      ]);
    });

    it('recomputing the chain from the returned events gives the stored hashes', async () => {
      const { scope } = freshScopes();
      const task = newTask({});
      const h1 = chainHash(GENESIS_HASH, 1, { task });
      await store().create(scope, task, { chain: [h1] });
      const working = statusEvent(task, 'TASK_STATE_WORKING', { message: agentText('é ✓ 😀') });
      const h2 = chainHash(h1, 2, working);
      await store().append(scope, task.id, [working], 1, { chain: [h2] });
      const log = await store().events(scope, task.id, 0);
      let prev = GENESIS_HASH;
      for (const entry of log) {
        expect(chainHash(prev, entry.seq, entry.event)).toBe(entry.hash);
        prev = entry.hash!;
      }
    });

    it('reads back the events given when the write also gives their canonical texts', async () => {
      // CreateOptions.texts: what the chain wrote to hash each event; a store may keep it as the
      // event's JSON. Where a text is missing the store writes the event as it would without.
      const { scope } = freshScopes();
      const task = newTask({});
      const created: (string | undefined)[] = [];
      const h1 = chainHash(GENESIS_HASH, 1, { task }, created);
      expect(created).toHaveLength(1);
      await store().create(scope, task, { chain: [h1], texts: created });
      const events = [
        statusEvent(task, 'TASK_STATE_WORKING', { message: agentText('é ✓ 😀 "quoted"\n') }),
        artifactEvent(task, textArtifact('a1', 'one')),
        statusEvent(task, 'TASK_STATE_COMPLETED'),
      ];
      const texts: (string | undefined)[] = [];
      const h2 = chainHash(h1, 2, events[0], texts);
      const h3 = chainHash(h2, 3, events[1], texts);
      const h4 = chainHash(h3, 4, events[2], texts);
      texts[1] = undefined;
      await store().append(scope, task.id, events, 1, { chain: [h2, h3, h4], texts });
      const log = await store().events(scope, task.id, 0);
      expect(log.map((e) => e.event)).toEqual([{ task }, ...events]);
      expect(log.map((e) => e.hash)).toEqual([h1, h2, h3, h4]);
      expect((await store().get(scope, task.id))?.task.status.state).toBe('TASK_STATE_COMPLETED');
    });

    it('keeps no hash of a refused write, and none for events written without one', async () => {
      const { scope } = freshScopes();
      const task = newTask({});
      await store().create(scope, task);
      const working = statusEvent(task, 'TASK_STATE_WORKING');
      await expect(
        attempt(() => store().append(scope, task.id, [working], 5, { chain: ['refused'] })),
      ).rejects.toThrow();
      await store().append(scope, task.id, [working], 1);
      const log = await store().events(scope, task.id, 0);
      expect(log.map((e) => e.hash)).toEqual([undefined, undefined]);
    });
  });
}
