/**
 * The a2a-kit agent the @a2a-js/sdk client calls: the same words as the agent in
 * ./a2a-js-server.ts, so both directions run the same scenarios.
 * - `message`: a bare Message reply, no task;
 * - `ask`: WORKING, then INPUT_REQUIRED with `QUESTION`; the answer on that task completes
 *   it with the artifact `thanks, <answer>`;
 * - `gate <key>`: WORKING until the test opens the gate, then artifact `released <key>`;
 * - `slow`: WORKING until canceled or 10 s have passed;
 * - `chunks`: one artifact in three chunks (`one `, `two `, `three`);
 * - `fail`: throws (the server records FAILED);
 * - anything else: WORKING, artifact `echo: <text>`, COMPLETED.
 */
import { textOf } from '../../src/core/parts.js';
import { createAgent, type Agent } from '../../src/server/agent.js';
import { QUESTION, type Gates } from './helpers.js';

/** Resolves true after `ms`, false as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => resolve(true), ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve(false);
      },
      { once: true },
    );
  });
}

/** Creates the agent; `gates` are opened by the tests. */
export function createInteropAgent(gates: Gates): Agent {
  return createAgent({
    card: {
      name: 'a2a-kit interop agent',
      description: 'An a2a-kit agent for @a2a-js/sdk interop tests',
      version: '1.0.0',
      capabilities: { streaming: true },
      skills: [{ id: 'echo', name: 'Echo', description: 'Echoes text', tags: ['interop'] }],
    },
    async *execute({ message, task, current, signal }) {
      const text = textOf(message).trim();
      if (current?.status.state === 'TASK_STATE_INPUT_REQUIRED') {
        yield task.working();
        yield task.artifact(`thanks, ${text}`, { name: 'result' });
        yield task.completed();
        return;
      }
      if (text === 'message') {
        yield task.reply(`echo: ${text}`);
        return;
      }
      yield task.working();
      if (text === 'fail') throw new Error('failing on purpose');
      if (text === 'ask') {
        yield task.inputRequired(QUESTION);
        return;
      }
      // A canceled task is already recorded CANCELED by the server: just stop.
      if (text.startsWith('gate ')) {
        const key = text.slice('gate '.length);
        if (!(await gates.wait(key, signal))) return;
        yield task.artifact(`released ${key}`, { name: 'result' });
      } else if (text === 'slow') {
        if (!(await sleep(10_000, signal))) return;
        yield task.artifact('slow done', { name: 'result' });
      } else if (text === 'chunks') {
        const artifactId = `chunks-${task.id}`;
        yield task.artifact('one ', { artifactId, name: 'result' });
        yield task.artifact('two ', { artifactId, append: true });
        yield task.artifact('three', { artifactId, append: true, lastChunk: true });
      } else {
        yield task.artifact(`echo: ${text}`, { name: 'result' });
      }
      yield task.completed();
    },
  });
}
