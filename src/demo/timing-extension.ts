/**
 * The demo's extension (spec §4.6): a client that activates it with the `A2A-Extensions` header
 * gets, in the metadata of every artifact update, how long after the task started it was made.
 * Declared (not required) in the demo card, so the server echoes it in `A2A-Extensions` when
 * activated and ignores it otherwise.
 */
import type { AgentExtension } from '../index.js';
import type { AgentEvent, ExecutionContext } from '../server/index.js';

/** The extension's URI: the key clients send and the metadata key they read. */
export const TIMING_EXTENSION = 'urn:a2a-kit:extension:timing:v1';

/** Its card entry. */
export const timingExtension: AgentExtension = {
  uri: TIMING_EXTENSION,
  description:
    'Activate with the A2A-Extensions header: every artifact update carries ' +
    `metadata["${TIMING_EXTENSION}"] = { elapsedMs } since the task started.`,
  required: false,
};

/** `events` with the timing metadata added when the caller activated the extension. */
export async function* withTiming(
  context: ExecutionContext,
  events: AsyncIterable<AgentEvent>,
): AsyncIterable<AgentEvent> {
  if (!context.call.activatedExtensions?.includes(TIMING_EXTENSION)) {
    yield* events;
    return;
  }
  const started = performance.now();
  for await (const event of events) {
    if ('artifactUpdate' in event) {
      const { artifact } = event.artifactUpdate;
      const elapsedMs = Math.round(performance.now() - started);
      yield {
        artifactUpdate: {
          ...event.artifactUpdate,
          artifact: {
            ...artifact,
            metadata: { ...artifact.metadata, [TIMING_EXTENSION]: { elapsedMs } },
          },
        },
      };
    } else yield event;
  }
}
