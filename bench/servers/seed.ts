/** Fills an a2a-kit server with completed echo tasks through its own SendMessage path. */
import { parseParams } from '../../src/core/validate.js';
import type { A2AServer } from '../../src/server/index.js';
import { restBody } from '../load/requests.js';

/** Creates `count` echo tasks (100 at a time); resolves to the id of the last one. */
export async function seedTasks(server: A2AServer, count: number): Promise<string> {
  let lastId = '';
  for (let done = 0; done < count;) {
    const batch = Math.min(100, count - done);
    const replies = await Promise.all(
      Array.from({ length: batch }, (_, i) => server.sendMessage(echoParams(done + i), {})),
    );
    const last = replies[replies.length - 1];
    if (last !== undefined && 'task' in last) lastId = last.task.id;
    done += batch;
  }
  return lastId;
}

/** The validated params of one echo SendMessage, parsed from JSON text as a binding would. */
export function echoParams(n: number) {
  const id = `seed-${process.pid}-${n}-${Math.random().toString(36).slice(2)}`;
  return parseParams('SendMessage', JSON.parse(restBody(id, 'hello')));
}
