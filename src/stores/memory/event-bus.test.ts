import { describe, expect, it } from 'vitest';
import { runEventBusSuite } from '../../testing/index.js';
import { MemoryEventBus } from './event-bus.js';

runEventBusSuite({ name: 'memory', create: () => new MemoryEventBus() });

describe('MemoryEventBus', () => {
  it('delivers synchronously and forgets a task once its last listener leaves', async () => {
    const bus = new MemoryEventBus();
    const got: number[] = [];
    const stopA = await bus.subscribe('', 't', (e) => got.push(e.seq));
    const stopB = await bus.subscribe('', 't', (e) => got.push(-e.seq));
    bus.publish('', 't', {
      seq: 1,
      event: { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'x' }] } },
    });
    expect(got).toEqual([1, -1]);
    stopA();
    expect(bus.activeTasks).toBe(1);
    stopB();
    stopB();
    expect(bus.activeTasks).toBe(0);
  });

  it('does not deliver after close', async () => {
    const bus = new MemoryEventBus();
    const got: number[] = [];
    await bus.subscribe('', 't', (e) => got.push(e.seq));
    await bus.close();
    bus.publish('', 't', {
      seq: 1,
      event: { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'x' }] } },
    });
    expect(got).toEqual([]);
  });
});
