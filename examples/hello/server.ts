import { createAgent, textOf } from 'a2a-kit/server';
import { serve } from 'a2a-kit/node';

const echo = createAgent({
  card: {
    name: 'Echo',
    description: 'Repeats what you say',
    version: '1.0.0',
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes your text', tags: ['demo'] }],
  },
  async *execute({ message, task }) {
    yield task.working();
    yield task.artifact(`You said: ${textOf(message)}`);
    yield task.completed();
  },
});

const { url } = await serve(echo, { port: 8770 });
console.log(`Agent Card: ${url}/.well-known/agent-card.json`);
