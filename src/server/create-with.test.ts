/**
 * A task created with its agent's first burst (`TaskStore.createWith`, what PostgreSQL offers)
 * reads exactly like one created and then appended to: the same log, the same answer, the same
 * stream, generations and audit chain. The store here is the memory store with a `createWith`
 * made of its own create and append, so only the server's path differs; the bursts that cannot
 * go with the creation (an invalid first event, an inline push config) take the old path.
 */
import { describe, expect, it } from 'vitest';
import { textOf, userMessage } from '../core/parts.js';
import type { StreamResponse, Task } from '../core/schemas/index.js';
import { chainHash, GENESIS_HASH } from '../security/audit-chain.js';
import { canonicalize } from '../security/jcs.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import { SqliteTaskStore } from '../stores/sqlite/index.js';
import type { CreateWithOptions, Scope, TaskStore } from '../stores/types.js';
import { createAgent, type AgentEvent, type ExecutionContext } from './agent.js';
import { A2AServer } from './a2a-server.js';

const scope: Scope = { tenant: '', owner: '' };
const card = {
  name: 'T',
  description: 'createWith test',
  version: '1',
  skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
};

/**
 * A memory store that keeps each audit link with its event, as a durable store does (the memory
 * store itself derives them on read: StoreFacets.linksOnRead).
 */
class LinkedStore extends MemoryTaskStore {
  constructor() {
    super({ linksOnRead: false });
  }
}

/** A linked memory store that also creates with events, counting its writes. */
class CreatingStore extends LinkedStore {
  readonly writes: string[] = [];
  override async create(...args: Parameters<MemoryTaskStore['create']>) {
    this.writes.push('create');
    return super.create(...args);
  }
  override async append(...args: Parameters<MemoryTaskStore['append']>) {
    this.writes.push('append');
    return super.append(...args);
  }
  async createWith(
    s: Scope,
    task: Task,
    events: readonly StreamResponse[],
    options: CreateWithOptions = {},
  ): Promise<number> {
    this.writes.push('createWith');
    const { chain, lease: _lease, ...message } = options;
    await super.create(s, task, { ...message, chain: chain?.slice(0, 1) });
    return super.append(s, task.id, events, 1, chain ? { chain: chain.slice(1) } : {});
  }
}

function servers(
  execute: (context: ExecutionContext) => AsyncIterable<AgentEvent>,
  options: { generations?: boolean; audit?: boolean } = {},
) {
  const make = (store: MemoryTaskStore) =>
    new A2AServer({ agent: createAgent({ card, execute }), store, logger: null, ...options });
  const creating = new CreatingStore();
  const plain = new LinkedStore();
  return { creating, plain, with: make(creating), without: make(plain) };
}

/** A task's log without ids and timestamps, and the audit hashes' presence. */
async function logOf(store: TaskStore, taskId: string) {
  return (await store.events(scope, taskId, 0)).map(({ seq, event, hash }) => {
    // Key order aside (SQLite keeps the chain's RFC 8785 text of an audited event).
    const text = canonicalize(event)
      .replaceAll(taskId, 'T')
      .replace(/"timestamp":"[^"]*"/g, '')
      .replace(/"(contextId|messageId|artifactId)":"[^"]*"/g, '');
    return `${seq} ${text} ${hash === undefined ? '' : 'hashed'}`;
  });
}

const echo = async function* ({ message, task }: ExecutionContext) {
  yield task.working();
  yield task.artifact(`echo: ${textOf(message)}`, { name: 'echo' });
  yield task.completed();
};

describe('creating a task with its first burst', () => {
  it('records and answers what create then append would, in one write', async () => {
    const s = servers(echo, { generations: true, audit: true });
    const a = await s.with.sendMessage({ message: userMessage('hi') }, {});
    const b = await s.without.sendMessage({ message: userMessage('hi') }, {});
    const [ta, tb] = [(a as { task: Task }).task, (b as { task: Task }).task];
    expect(s.creating.writes).toEqual(['createWith']);
    expect(ta.status.state).toBe('TASK_STATE_COMPLETED');
    expect(ta.generation).toBe(tb.generation);
    expect(await logOf(s.creating, ta.id)).toEqual(await logOf(s.plain, tb.id));
    expect(await logOf(s.creating, ta.id)).toHaveLength(4);
  });

  it('is one transaction on the SQLite store, the lease of a running task taken in it', async () => {
    const s = servers(echo, { audit: true });
    const sqlite = new SqliteTaskStore({ path: ':memory:' });
    let commits = 0;
    const exec = sqlite.db.exec.bind(sqlite.db);
    sqlite.db.exec = (sql: string) => {
      if (/^COMMIT/.test(sql)) commits++;
      return exec(sql);
    };
    const server = new A2AServer({
      agent: createAgent({ card, execute: echo }),
      store: sqlite,
      logger: null,
      audit: true,
    });
    const a = (await server.sendMessage({ message: userMessage('hi') }, {})) as { task: Task };
    const b = (await s.without.sendMessage({ message: userMessage('hi') }, {})) as { task: Task };
    expect(commits).toBe(1);
    expect(a.task).toStrictEqual((await sqlite.get(scope, a.task.id))?.task);
    expect(await logOf(sqlite, a.task.id)).toEqual(await logOf(s.plain, b.task.id));
    // An agent that waits after its first event: the task is created running, with its lease.
    const waiting = new A2AServer({
      agent: createAgent({
        card,
        async *execute({ task }) {
          yield task.working();
          await new Promise((resolve) => setTimeout(resolve, 50));
          yield task.completed();
        },
      }),
      store: sqlite,
      logger: null,
    });
    commits = 0;
    const started = await waiting.sendMessage(
      { message: userMessage('wait'), configuration: { returnImmediately: true } },
      {},
    );
    const id = (started as { task: Task }).task.id;
    expect(commits).toBe(1);
    const lease = sqlite.db.prepare('SELECT lease_owner FROM tasks WHERE id = ?').get(id);
    expect(lease).toEqual({ lease_owner: waiting.ownership?.instanceId });
    await waiting.idle();
    await Promise.all([waiting.close(), server.close()]);
    await sqlite.close();
  });

  it('streams the same events', async () => {
    const s = servers(echo);
    const collect = async (server: A2AServer) => {
      const shown: string[] = [];
      for await (const item of await server.sendStreamingMessage(
        { message: userMessage('x') },
        {},
      )) {
        const e = item.event;
        if ('task' in e) shown.push(`task ${e.task.status.state}`);
        else if ('statusUpdate' in e) shown.push(e.statusUpdate.status.state);
        else if ('artifactUpdate' in e) shown.push(`artifact ${textOf(e.artifactUpdate.artifact)}`);
        shown.push(`id ${item.id}`);
      }
      return shown;
    };
    expect(await collect(s.with)).toEqual(await collect(s.without));
    expect(s.creating.writes).toEqual(['createWith']);
  });

  it('creates alone and appends after when the first event is invalid', async () => {
    const s = servers(async function* ({ task }) {
      yield task.completed();
      yield task.working();
    });
    const bad = servers(async function* () {
      yield {
        artifactUpdate: { artifact: { artifactId: 'a', parts: [] } },
      } as unknown as AgentEvent;
    });
    const a = (await bad.with.sendMessage({ message: userMessage('x') }, {})) as { task: Task };
    const b = (await bad.without.sendMessage({ message: userMessage('x') }, {})) as { task: Task };
    expect(a.task.status.state).toBe('TASK_STATE_FAILED');
    expect(await logOf(bad.creating, a.task.id)).toEqual(await logOf(bad.plain, b.task.id));
    expect(bad.creating.writes[0]).toBe('create');
    // A burst that ends the task stops there: what follows is never recorded.
    const c = (await s.with.sendMessage({ message: userMessage('x') }, {})) as { task: Task };
    expect(c.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(await logOf(s.creating, c.task.id)).toHaveLength(2);
  });

  it('records the burst with the creation, the rest in appends, when the agent waits', async () => {
    const s = servers(
      async function* ({ task }) {
        yield task.working();
        await new Promise((resolve) => setTimeout(resolve, 5));
        yield task.artifact('later');
        yield task.completed();
      },
      { audit: true },
    );
    const a = (await s.with.sendMessage({ message: userMessage('x') }, {})) as { task: Task };
    const b = (await s.without.sendMessage({ message: userMessage('x') }, {})) as { task: Task };
    expect(s.creating.writes).toEqual(['createWith', 'append']);
    expect(await logOf(s.creating, a.task.id)).toEqual(await logOf(s.plain, b.task.id));
    // The append after the creation links on from the head the creation wrote (docs/trust.md).
    let prev = GENESIS_HASH;
    for (const { seq, event, hash } of await s.creating.events(scope, a.task.id, 0)) {
      expect(hash).toBe(chainHash(prev, seq, event));
      prev = hash as string;
    }
  });
});
