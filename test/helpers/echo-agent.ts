/**
 * The agent the framework adapter tests serve (also loaded by Bun and workerd, so it imports
 * nothing test-only): it works, echoes the text as an artifact and completes; `hold` waits until
 * {@link releaseHeld}.
 */
import { textOf } from '../../src/core/parts.js';
import { createAgent } from '../../src/server/agent.js';

/** Resolvers of the tasks waiting in `hold` (released by {@link releaseHeld}). */
const held: (() => void)[] = [];
export function releaseHeld(): void {
  for (const release of held.splice(0)) release();
}

export const echoAgent = createAgent({
  card: {
    name: 'Echo',
    description: 'Repeats you',
    version: '1.0.0',
    skills: [{ id: 'echo', name: 'Echo', description: 'Echo text', tags: ['demo'] }],
  },
  async *execute({ message, task }) {
    yield task.working();
    if (textOf(message) === 'hold') await new Promise<void>((resolve) => held.push(resolve));
    yield task.artifact(`You said: ${textOf(message)}`);
    yield task.completed();
  },
});
