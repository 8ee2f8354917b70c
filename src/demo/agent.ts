/**
 * The demo agent `npm start` serves. The first word of the user's text (or the `command` of a data
 * part) picks a behaviour; a message on a paused task continues the behaviour that paused it.
 */
import { createAgent, type Agent } from '../server/index.js';
import {
  auth,
  authorized,
  echo,
  echoAll,
  fail,
  greet,
  reject,
  slow,
  story,
  whoami,
  type Behaviour,
  type Timing,
} from './behaviours.js';
import { book, bookAnswer } from './book.js';
import { demoCard, demoExtendedCard } from './card.js';
import { parseCommand } from './command.js';
import { withTiming } from './timing-extension.js';

export { demoCard, demoExtendedCard } from './card.js';

/** The bearer token `auth` hands out when none is given (startDemo makes a new one per start). */
export const DEFAULT_DEMO_TOKEN = 'demo-token';

/** Options of {@link createDemoAgent}. */
export interface DemoAgentOptions {
  /** Pause between story chunks (default 50 ms). */
  chunkDelayMs?: number;
  /** Length of one "second" of `slow` (default 1000 ms). */
  tickMs?: number;
  /** The bearer token the `auth` command hands out (default {@link DEFAULT_DEMO_TOKEN}). */
  token?: string;
}

// A Map, not an object literal: words like "constructor" must not find Object.prototype members.
const BEHAVIOURS = new Map<string, Behaviour>([
  ['echo', echo],
  ['hi', greet],
  ['hello', greet],
  ['help', greet],
  ['book', book],
  ['story', story],
  ['slow', slow],
  ['reject', reject],
  ['fail', fail],
  ['auth', auth],
  ['whoami', whoami],
]);

/** Creates the demo agent; `options` change its timing (tests make it faster) and token. */
export function createDemoAgent(options: DemoAgentOptions = {}): Agent {
  const timing: Timing = {
    chunkDelayMs: options.chunkDelayMs ?? 50,
    tickMs: options.tickMs ?? 1000,
  };
  const token = options.token ?? DEFAULT_DEMO_TOKEN;
  return createAgent({
    card: demoCard,
    extendedCard: demoExtendedCard,
    execute(context) {
      const { current } = context;
      const first = current?.history?.[0];
      if (current && first) {
        // The server only resumes a paused task (INPUT_REQUIRED or AUTH_REQUIRED); the message
        // that created it says which behaviour paused it and so which question this answers.
        const started = parseCommand(first).name;
        if (started === 'book') return withTiming(context, bookAnswer(context));
        if (started === 'auth') return withTiming(context, authorized(context, token));
      }
      const command = parseCommand(context.message);
      const behaviour = BEHAVIOURS.get(command.name) ?? echoAll;
      return withTiming(context, behaviour(context, command, timing));
    },
  });
}

/** The demo agent with its normal timing. */
export const demoAgent: Agent = createDemoAgent();
