/** Holds many streams open at once (memory per open stream), then closes them. */
import { Agent, type ClientRequest } from 'node:http';
import type { Binding } from './requests.js';
import { openStream } from './sse-load.js';

const open: ClientRequest[] = [];
let agent: Agent | undefined;

/** Opens `count` streams of `hold` tasks; resolves once each has delivered its first event. */
export async function openStreams(spec: {
  url: string;
  binding: Binding;
  count: number;
}): Promise<number> {
  agent ??= new Agent({ keepAlive: false, maxSockets: Infinity });
  const firsts: Promise<void>[] = [];
  for (let i = 0; i < spec.count; i++) {
    let first!: () => void;
    firsts.push(new Promise<void>((resolve) => (first = resolve)));
    const stream = openStream({ url: spec.url, binding: spec.binding, text: 'hold' }, agent, first);
    // Ends when closeStreams destroys it; a stream that fails early still counts as settled.
    stream.done.then(first, first);
    open.push(stream.req);
    // Open in small waves so the server's accept queue never overflows.
    if (i % 100 === 99) await Promise.all(firsts.slice(i - 99));
  }
  await Promise.all(firsts);
  return open.length;
}

/** Closes every stream opened by {@link openStreams}. */
export function closeStreams(): number {
  const count = open.length;
  for (const req of open.splice(0)) req.destroy();
  return count;
}
