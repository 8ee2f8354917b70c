/**
 * Small agents for the conformance and fuzz suites. The scripted agent reads a command from the
 * first word of the user's text (`echo hi`, `ask`, `auth`, `wait <gate>`, `steps <n> <gate>`, `chunks <n>`,
 * `reply hi`, `reject`, `fail`, `throw`); the others differ only in their cards.
 */
import { createAgent, dataOf, textOf } from '../../src/server/index.js';
import type {
  Agent,
  AgentCardConfig,
  AgentEvent,
  ExecutionContext,
} from '../../src/server/index.js';

/** Promises a test releases by key: lets a test decide exactly when an agent moves on. */
export class Gates {
  private readonly waiters = new Map<string, (() => void)[]>();
  private readonly credit = new Map<string, number>();

  /** Lets `count` waits on `key` through (now or as soon as they start waiting). */
  release(key: string, count = 1): void {
    for (let i = 0; i < count; i++) {
      const waiting = this.waiters.get(key);
      const next = waiting?.shift();
      if (next) next();
      else this.credit.set(key, (this.credit.get(key) ?? 0) + 1);
    }
  }

  /** Resolves when released; rejects when `signal` aborts (the task was canceled). */
  wait(key: string, signal: AbortSignal): Promise<void> {
    const credit = this.credit.get(key) ?? 0;
    if (credit > 0) {
      this.credit.set(key, credit - 1);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(new Error('aborted'));
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      const list = this.waiters.get(key) ?? [];
      list.push(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
      this.waiters.set(key, list);
    });
  }
}

/** What a test can observe about its agent. */
export interface Probe {
  /** Executions per user messageId (a resumed task counts its answer's messageId). */
  readonly runs: Map<string, number>;
  readonly gates: Gates;
  /** Executions that saw their signal abort (canceled while working). */
  aborted: number;
  /** Executions of `wait` that finished because their gate opened. */
  finished: number;
}

/** An agent and its probe. */
export interface TestAgent {
  readonly agent: Agent;
  readonly probe: Probe;
}

export const EXT_REQUIRED = 'https://a2a-kit.test/ext/required/v1';
export const EXT_OPTIONAL = 'https://a2a-kit.test/ext/optional/v1';

/** The card every test agent starts from. */
export function baseCard(overrides: Partial<AgentCardConfig> = {}): AgentCardConfig {
  return {
    name: 'Conformance agent',
    description: 'Scripted agent for the a2a-kit conformance suite',
    version: '1.2.0',
    provider: { url: 'https://a2a-kit.test', organization: 'a2a-kit tests' },
    defaultInputModes: ['text/plain', 'application/json'],
    skills: [{ id: 'script', name: 'Script', description: 'Runs test scripts', tags: ['test'] }],
    ...overrides,
  };
}

/** The scripted agent (see the file comment). */
export function scriptedAgent(card: AgentCardConfig = baseCard()): TestAgent {
  const probe: Probe = { runs: new Map(), gates: new Gates(), aborted: 0, finished: 0 };
  const agent = createAgent({
    card,
    execute(context) {
      const id = context.message.messageId;
      probe.runs.set(id, (probe.runs.get(id) ?? 0) + 1);
      return context.current ? resume(context) : run(context, probe);
    },
  });
  return { agent, probe };
}

async function* run(context: ExecutionContext, probe: Probe): AsyncIterable<AgentEvent> {
  const { task, signal } = context;
  const text = textOf(context.message);
  const [command = 'echo', ...args] = text.trim().split(/\s+/);
  switch (command) {
    case 'reply':
      yield task.reply(`reply: ${args.join(' ')}`);
      return;
    case 'ask':
      yield task.working();
      yield task.inputRequired('What is your name?');
      return;
    case 'auth':
      yield task.working();
      yield task.authRequired('Sign in at https://auth.a2a-kit.test, then reply with your name');
      return;
    case 'wait': {
      yield task.working('waiting for the gate');
      try {
        await probe.gates.wait(args[0] ?? '', signal);
      } catch {
        probe.aborted++;
        return;
      }
      probe.finished++;
      yield task.artifact('gate opened', { name: 'result' });
      yield task.completed();
      return;
    }
    case 'steps': {
      const n = Number(args[0] ?? '1');
      yield task.working();
      for (let i = 1; i <= n; i++) {
        await probe.gates.wait(args[1] ?? '', signal);
        yield task.artifact(`step ${i}`, {
          artifactId: 'steps',
          append: i > 1,
          lastChunk: i === n,
        });
      }
      yield task.completed();
      return;
    }
    case 'chunks': {
      const n = Number(args[0] ?? '3');
      yield task.working();
      for (let i = 1; i <= n; i++) {
        yield task.artifact(`chunk ${i} `, {
          artifactId: 'long',
          append: i > 1,
          lastChunk: i === n,
        });
      }
      yield task.completed();
      return;
    }
    case 'reject':
      yield task.rejected('I will not do that');
      return;
    case 'fail':
      yield task.failed('could not do it');
      return;
    case 'throw':
      throw new Error('secret-internal-detail');
    default:
      yield task.working();
      yield task.artifact(`echo: ${text}`, { name: 'echo' });
      yield task.completed();
  }
}

/** The answer to `ask`: a text part, or a data part `{ name }`; `again` asks once more. */
async function* resume(context: ExecutionContext): AsyncIterable<AgentEvent> {
  const { task, message } = context;
  const data = dataOf(message);
  const name =
    typeof data === 'object' && data !== null && 'name' in data
      ? String(data.name)
      : textOf(message);
  if (name === 'again') {
    yield task.inputRequired('Still need your name');
    return;
  }
  yield task.working();
  yield task.artifact(`hello ${name}`, { name: 'greeting' });
  yield task.completed();
}

/** Declares a required and an optional extension (requirement 127 of test/conformance/requirements.ts, [233-236]). */
export function extensionAgent(): TestAgent {
  return scriptedAgent(
    baseCard({
      capabilities: {
        streaming: true,
        extensions: [
          { uri: EXT_REQUIRED, description: 'must be activated', required: true },
          { uri: EXT_OPTIONAL, description: 'may be activated' },
        ],
      },
    }),
  );
}

/** Accepts only application/json input (requirement 62 of test/conformance/requirements.ts). */
export function jsonOnlyAgent(): TestAgent {
  return scriptedAgent(baseCard({ defaultInputModes: ['application/json'] }));
}

/** Declares `streaming: false` (requirement 124 of test/conformance/requirements.ts). */
export function noStreamingAgent(): TestAgent {
  return scriptedAgent(baseCard({ capabilities: { streaming: false, pushNotifications: false } }));
}

/** Declares `extendedAgentCard: true` without configuring one (requirement 126 of test/conformance/requirements.ts). */
export function unconfiguredExtendedCardAgent(): TestAgent {
  return scriptedAgent(baseCard({ capabilities: { streaming: true, extendedAgentCard: true } }));
}
