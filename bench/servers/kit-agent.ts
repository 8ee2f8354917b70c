/** The bench's echo agent built with a2a-kit (see modes.ts for what it does). */
import { newId } from '../../src/core/ids.js';
import { createAgent, textOf, type Agent } from '../../src/server/index.js';
import { CHUNK_TEXT, held, longTaskPause, parseMode } from './modes.js';

/** The card shared by the a2a-kit bench agent. */
const card: Agent['card'] = {
  name: 'Bench echo',
  description: 'Echoes the text it receives',
  version: '1.0.0',
  capabilities: { streaming: true },
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes text', tags: ['bench'] }],
};

/** The a2a-kit echo agent. */
export const kitEcho: Agent = createAgent({
  card,
  // `context.signal` is read only by the mode that waits: a2a-kit makes the signal on first use.
  async *execute(context) {
    const { message, task } = context;
    const text = textOf(message);
    const mode = parseMode(text);
    yield task.working();
    if (mode.kind === 'events') {
      await longTaskPause();
      const artifactId = newId();
      for (let i = 0; i < mode.count; i++) {
        const last = i === mode.count - 1;
        yield task.artifact(CHUNK_TEXT, { artifactId, append: i > 0, lastChunk: last });
      }
    } else if (mode.kind === 'hold') {
      await held(context.signal);
    } else {
      yield task.artifact(`echo: ${text}`, { name: 'echo' });
    }
    yield task.completed();
  },
});
