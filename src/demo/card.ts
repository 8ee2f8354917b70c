/**
 * The demo agent's card: one skill per behaviour, so the card advertises exactly what it does,
 * and the extended card (for callers with the token `auth` hands out), which adds `whoami`.
 * `pushNotifications` is set by the server from its push option (src/demo/main.ts).
 */
import type { AgentCard, AgentSkill } from '../index.js';
import type { AgentCardConfig, CallContext } from '../server/index.js';
import { timingExtension } from './timing-extension.js';

const TEXT = 'text/plain';
const JSON_TYPE = 'application/json';

/** The Agent Card of the demo agent (`supportedInterfaces` is filled in by `serve()`). */
export const demoCard = {
  name: 'a2a-kit demo agent',
  description:
    'Shows every A2A 1.0 task lifecycle: the first word of your text (or a data part ' +
    '{"command": "..."}) picks a behaviour; anything else is echoed.',
  version: '0.1.0',
  capabilities: { streaming: true, extendedAgentCard: true, extensions: [timingExtension] },
  // Declared, not required: every operation is open to anonymous callers; the token only
  // unlocks the extended card (and makes the caller "demo-user").
  securitySchemes: {
    demoToken: {
      httpAuthSecurityScheme: {
        scheme: 'Bearer',
        description: 'The token the "auth" command hands out (a new one at every start).',
      },
    },
  },
  defaultInputModes: [TEXT, JSON_TYPE],
  defaultOutputModes: [TEXT, JSON_TYPE],
  skills: [
    {
      id: 'echo',
      name: 'Echo',
      description:
        'Repeats your text in an artifact: WORKING, one artifact "You said: ...", COMPLETED. ' +
        'Any text that is not another command is echoed too.',
      tags: ['demo', 'task'],
      examples: ['echo hello there'],
      outputModes: [TEXT],
    },
    {
      id: 'greet',
      name: 'Greeting',
      description: 'Answers "hi", "hello" or "help" with a single message; no task is created.',
      tags: ['demo', 'message'],
      examples: ['hi', 'hello', 'help'],
      outputModes: [TEXT],
    },
    {
      id: 'book',
      name: 'Book a table (multi-turn)',
      description:
        'Asks "Which date?" (INPUT_REQUIRED). Answer on the same taskId with a date as text ' +
        '("2026-12-24") or as a data part {"date": "2026-12-24"}; the confirmation artifact holds ' +
        'a data part and a text part. An invalid date is asked for again.',
      tags: ['demo', 'multi-turn', 'input-required'],
      examples: ['book', '{"date": "2026-12-24"}'],
      inputModes: [TEXT, JSON_TYPE],
      outputModes: [JSON_TYPE, TEXT],
    },
    {
      id: 'story',
      name: 'Streamed story',
      description:
        'Streams a long answer as one artifact in n chunks (default 20, at most 200), ' +
        'about 50 ms apart: append after the first chunk, lastChunk on the last.',
      tags: ['demo', 'streaming', 'artifact-chunks'],
      examples: ['story', 'story 5'],
      outputModes: [TEXT],
    },
    {
      id: 'slow',
      name: 'Slow cancellable task',
      description:
        'Works for n seconds (default 30, at most 3600), reporting progress in a WORKING status ' +
        'every second; CancelTask stops it at once (CANCELED).',
      tags: ['demo', 'long-running', 'cancel'],
      examples: ['slow', 'slow 5'],
      outputModes: [TEXT],
    },
    {
      id: 'reject',
      name: 'Rejection',
      description: 'Refuses the task: REJECTED with a status message giving the reason.',
      tags: ['demo', 'error-path'],
      examples: ['reject'],
      outputModes: [TEXT],
    },
    {
      id: 'fail',
      name: 'Failure',
      description:
        'The agent throws; the server records FAILED with a generic status message ' +
        '(internal error details are not exposed).',
      tags: ['demo', 'error-path'],
      examples: ['fail'],
      outputModes: [TEXT],
    },
    {
      id: 'auth',
      name: 'Authorization required',
      description:
        'Pauses in AUTH_REQUIRED with a status message saying what is needed; in this demo any ' +
        'follow-up message on the same taskId counts as the authorization and completes the task ' +
        'with a bearer token for the extended card.',
      tags: ['demo', 'multi-turn', 'auth-required'],
      examples: ['auth'],
      outputModes: [TEXT],
    },
  ],
} satisfies AgentCardConfig;

/** The skill only the extended card lists. */
const WHOAMI: AgentSkill = {
  id: 'whoami',
  name: 'Who am I',
  description:
    'Answers with a single message naming the caller: "demo-user" with the token from "auth", ' +
    'else anonymous.',
  tags: ['demo', 'auth', 'extended-card'],
  examples: ['whoami'],
  outputModes: [TEXT],
};

/** The extended card: the public card as served, plus `whoami` (spec §3.1.11). */
export function demoExtendedCard(_call: CallContext, card: AgentCard): AgentCard {
  return {
    ...card,
    description: `${card.description} Extended card: also lists whoami.`,
    skills: [...card.skills, WHOAMI],
  };
}
