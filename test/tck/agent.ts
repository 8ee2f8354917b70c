/**
 * The agent the official A2A TCK (a2aproject/a2a-tck, branch 1.0-dev) is run against: its in-band
 * test hooks on a2a-kit's public API only. The TCK drives the agent through the prefix of each
 * message's `messageId` (its `scenarios/*.feature`): `tck-complete-task-…` completes the task,
 * `tck-input-required-…` pauses it, `tck-artifact-file-…` adds a file artifact, and so on. The
 * longest matching prefix wins (`tck-artifact-file-url` before `tck-artifact-file`); any other
 * message completes its task with an agent message naming the id. docs/conformance.md says how to
 * run the TCK against it.
 */
import {
  createAgent,
  dataPart,
  fileUrlPart,
  rawPart,
  textPart,
  type Agent,
  type AgentEvent,
  type ExecutionContext,
} from '../../src/server/index.js';

/** One scenario: what the agent does for a message whose id starts with its prefix. */
export type Hook = (context: ExecutionContext, timing: TckTiming) => AsyncIterable<AgentEvent>;

/** The TCK's timing knobs. */
export interface TckTiming {
  /** One "streaming timeout" of the TCK scenarios (default 2000 ms, as the TCK's own SUTs). */
  streamingTimeoutMs: number;
}

/** The bytes of the TCK's inline file artifacts (`tck`, base64 `dGNr`). */
const FILE_BYTES = new TextEncoder().encode('tck');

/** A file part named output.txt (text/plain), inline. */
const outputFile = () => rawPart(FILE_BYTES, { mediaType: 'text/plain', filename: 'output.txt' });

/** Streams WORKING, one artifact, COMPLETED (the TCK's streaming scenarios). */
function workArtifactComplete(parts: () => ReturnType<typeof textPart>[]): Hook {
  return async function* ({ task }) {
    yield task.working();
    yield task.artifact(parts());
    yield task.completed();
  };
}

/** The hooks, by messageId prefix (scenarios/core_operations.feature, scenarios/streaming.feature). */
export const TCK_HOOKS: Readonly<Record<string, Hook>> = {
  // core_operations.feature
  'tck-complete-task': async function* ({ task }) {
    yield task.completed('Hello from TCK');
  },
  'tck-artifact-text': async function* ({ task }) {
    yield task.artifact([textPart('Generated text content')]);
    yield task.completed();
  },
  'tck-artifact-file': async function* ({ task }) {
    yield task.artifact([outputFile()]);
    yield task.completed();
  },
  'tck-artifact-file-url': async function* ({ task }) {
    const part = fileUrlPart('https://example.com/output.txt', {
      mediaType: 'text/plain',
      filename: 'output.txt',
    });
    yield task.artifact([part]);
    yield task.completed();
  },
  'tck-artifact-data': async function* ({ task }) {
    yield task.artifact([dataPart({ key: 'value', count: 42 })]);
    yield task.completed();
  },
  'tck-message-response': async function* ({ task }) {
    yield task.reply('Direct message response');
  },
  'tck-input-required': async function* ({ task }) {
    yield task.inputRequired('Input required by the TCK: send a follow-up on this task.');
  },
  'tck-reject-task': async function* ({ task }) {
    yield task.rejected('rejected');
  },
  // streaming.feature
  'tck-stream-001': workArtifactComplete(() => [textPart('Stream hello from TCK')]),
  'tck-stream-002': async function* ({ task }) {
    yield task.completed();
  },
  'tck-stream-003': workArtifactComplete(() => [textPart('Stream task lifecycle')]),
  'tck-stream-ordering-001': workArtifactComplete(() => [textPart('Ordered output')]),
  'tck-stream-artifact-text': workArtifactComplete(() => [textPart('Streamed text content')]),
  'tck-stream-artifact-file': workArtifactComplete(() => [outputFile()]),
  'tck-stream-artifact-chunked': async function* ({ task }) {
    yield task.working();
    const artifactId = 'tck-chunked';
    yield task.artifact([textPart('chunk-1 ')], { artifactId, append: true });
    yield task.artifact([textPart('chunk-2')], { artifactId, append: true, lastChunk: true });
    yield task.completed();
  },
  'test-resubscribe-message-id': async function* ({ task, signal }, timing) {
    yield task.working();
    await sleep(2 * timing.streamingTimeoutMs, signal);
    if (signal.aborted) return;
    yield task.completed();
  },
};

/** Prefixes longest first, so the most specific scenario wins. */
const PREFIXES = Object.keys(TCK_HOOKS).sort((a, b) => b.length - a.length);

/** The hook for a messageId, or undefined (the default behaviour applies). */
export function hookFor(messageId: string): Hook | undefined {
  const prefix = PREFIXES.find((p) => messageId.startsWith(p));
  return prefix === undefined ? undefined : TCK_HOOKS[prefix];
}

/** Any other message: complete the task with a message naming the id. */
const unhandled: Hook = async function* ({ task, message }) {
  yield task.completed(`Unhandled messageId prefix: ${message.messageId}`);
};

/** Creates the TCK agent (tests shorten the streaming timeout). */
export function createTckAgent(timing: Partial<TckTiming> = {}): Agent {
  const resolved: TckTiming = { streamingTimeoutMs: timing.streamingTimeoutMs ?? 2000 };
  return createAgent({
    card: {
      name: 'a2a-kit TCK agent',
      description: 'Implements the in-band test hooks of the official A2A TCK on a2a-kit.',
      version: '1.0.0',
      capabilities: { streaming: true },
      skills: [
        {
          id: 'tck',
          name: 'TCK conformance',
          description: 'Answers the messages of the A2A TCK by their messageId prefix.',
          tags: ['tck'],
        },
      ],
    },
    execute(context) {
      return (hookFor(context.message.messageId) ?? unhandled)(context, resolved);
    },
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
