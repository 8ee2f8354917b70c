/**
 * TaskBytes (event-size.ts) keeps a task's artifact bytes in two fields until a second artifact
 * id: a property test against the map it used to copy for every batch (the reference below).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Artifact, StreamResponse, Task } from '../core/schemas/index.js';
import { TaskBytes, artifactSize, messageSize, taskSize } from './event-size.js';

/** The reference: one map of bytes by artifact id, copied by every batch. */
class ReferenceBytes {
  artifacts: Map<string, number>;
  total: number;
  constructor(task: Task) {
    this.total = taskSize(task);
    this.artifacts = new Map((task.artifacts ?? []).map((a) => [a.artifactId, artifactSize(a)]));
  }
  measure(events: readonly StreamResponse[]): { total: number; artifacts: Map<string, number> } {
    let total = this.total;
    const artifacts = new Map(this.artifacts);
    for (const event of events) {
      if ('message' in event) total += messageSize(event.message);
      else if ('statusUpdate' in event) {
        const message = event.statusUpdate.status.message;
        if (message) total += messageSize(message);
      } else if ('artifactUpdate' in event) {
        const { artifact, append } = event.artifactUpdate;
        const before = artifacts.get(artifact.artifactId);
        const size = artifactSize(artifact);
        const after = append && before !== undefined ? before + size : size;
        total += after - (before ?? 0);
        artifacts.set(artifact.artifactId, after);
      }
    }
    return { total, artifacts };
  }
}

const artifact = (id: string, text: string): Artifact => ({ artifactId: id, parts: [{ text }] });
const ids = fc.constantFrom('a', 'b', 'c');
const text = fc.string({ maxLength: 12 });
const event: fc.Arbitrary<StreamResponse> = fc.oneof(
  fc.record({ id: ids, text, append: fc.boolean() }).map(({ id, text, append }) => ({
    artifactUpdate: { taskId: 't', contextId: 'c', artifact: artifact(id, text), append },
  })),
  text.map((t) => ({
    statusUpdate: {
      taskId: 't',
      contextId: 'c',
      status: {
        state: 'TASK_STATE_WORKING' as const,
        message: { messageId: 'm', role: 'ROLE_AGENT' as const, parts: [{ text: t }] },
      },
    },
  })),
  text.map((t) => ({
    message: { messageId: 'u', role: 'ROLE_USER' as const, parts: [{ text: t }] },
  })),
);

describe('TaskBytes', () => {
  it('measures and commits what a map of bytes per artifact id gives', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: ids, text }), { maxLength: 3 }),
        fc.array(fc.record({ batch: fc.array(event, { maxLength: 5 }), commit: fc.boolean() }), {
          maxLength: 8,
        }),
        (initial, batches) => {
          const task: Task = {
            id: 't',
            contextId: 'c',
            status: { state: 'TASK_STATE_WORKING' },
            artifacts: initial.map((a) => artifact(a.id, a.text)),
          };
          const bytes = new TaskBytes(task);
          const reference = new ReferenceBytes(task);
          for (const { batch, commit } of batches) {
            const measured = bytes.measure(batch);
            const expected = reference.measure(batch);
            expect(measured.total).toBe(expected.total);
            if (commit) {
              bytes.commit(measured);
              reference.total = expected.total;
              reference.artifacts = expected.artifacts;
            }
            expect(bytes.total).toBe(reference.total);
          }
        },
      ),
    );
  });
});
