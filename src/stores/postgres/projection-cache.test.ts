import { describe, expect, it } from 'vitest';
import { artifactEvent, newTask, statusEvent, textArtifact } from '../../testing/store-fixtures.js';
import { ProjectionCache, advance, project } from './projection-cache.js';

const task = newTask({ state: 'TASK_STATE_WORKING' });
const chunk = (i: number) => artifactEvent(task, textArtifact('a', `${i}`), { append: i > 0 });

describe('ProjectionCache', () => {
  it('evicts the least recently stored task beyond its capacity', () => {
    const cache = new ProjectionCache(2);
    for (const id of ['x', 'y', 'z']) cache.set(id, project('1', task, 1, []));
    expect([cache.peek('x'), cache.peek('y') !== undefined, cache.peek('z') !== undefined]).toEqual(
      [undefined, true, true],
    );
  });

  it('keeps nothing with capacity 0', () => {
    const cache = new ProjectionCache(0);
    cache.set('x', project('1', task, 1, []));
    expect(cache.size).toBe(0);
  });
});

describe('advance', () => {
  it('applies only the entries the projection does not have yet', () => {
    const entry = project('1', task, 1, [chunk(0), chunk(1)]); // seq 3
    expect(advance(entry, 1, [chunk(0), chunk(1), chunk(2)])).toBe(true); // 2..4: only 4 is new
    expect(entry.seq).toBe(4);
    expect(entry.projection.task.artifacts?.[0]?.parts).toHaveLength(3);
  });

  it('refuses entries that leave a gap', () => {
    const entry = project('1', task, 1, []);
    expect(advance(entry, 3, [chunk(0)])).toBe(false);
    expect(entry.seq).toBe(1);
  });

  it('reports entries that do not apply', () => {
    const entry = project('1', task, 1, [statusEvent(task, 'TASK_STATE_COMPLETED')]);
    expect(advance(entry, 2, [chunk(0)])).toBe(false);
  });
});
