/**
 * Property-based fuzzing (issue 2 item 8): thousands of random and mutated requests over both
 * bindings. Every reply must be a well-formed success for its operation or a well-formed spec
 * error, never a 5xx or a hang, and the server must still serve a valid request afterwards.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { scriptedAgent } from '../helpers/agents.js';
import { serverSuite, verifies, type SuiteServer } from '../helpers/bindings.js';
import { FUZZ_OPERATIONS, bodyFor, contentTypes, restRequests, versions } from '../helpers/fuzz.js';
import { checkJsonRpcReply, checkRestReply, exchange } from '../helpers/reply-check.js';
import { sendTask } from '../helpers/requests.js';
import { startServer } from '../helpers/server.js';

const RUNS = 1500;
const TIME_LIMIT_MS = 12_000;
const LEGACY_METHODS = ['message/send', 'tasks/get', 'tasks/list', 'tasks/cancel'];

function headers(version: string | null, contentType: string | null): Record<string, string> {
  const h: Record<string, string> = {};
  if (version !== null) h['a2a-version'] = version;
  if (contentType !== null) h['content-type'] = contentType;
  return h;
}

/** A JSON-RPC request: an envelope around mutated params, or the mutated envelope itself. */
const jsonRpcRequests = fc.constantFrom(...FUZZ_OPERATIONS).chain((operation) =>
  fc.record({
    operation: fc.constant(operation),
    body: bodyFor(operation),
    method: fc.oneof(
      { weight: 8, arbitrary: fc.constant<string>(operation) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          'SendStreamingMessage',
          'GetExtendedAgentCard',
          ...LEGACY_METHODS,
        ),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
    ),
    id: fc.oneof(
      fc.integer(),
      fc.string({ maxLength: 6 }),
      fc.constant(null),
      fc.constant(undefined),
      fc.boolean(),
    ),
    envelope: fc.boolean(),
    version: versions,
    contentType: contentTypes,
  }),
);

async function stillServing(server: SuiteServer, binding: 'JSONRPC' | 'HTTP+JSON') {
  const task = await sendTask(server.driver(binding), 'echo after fuzzing');
  expect(task.status.state).toBe('TASK_STATE_COMPLETED');
  expect(server.running.internalErrors).toEqual([]);
}

serverSuite(
  'fuzz',
  () => startServer(scriptedAgent().agent, { maxBodyBytes: 64 * 1024 }),
  (server) => {
    verifies(
      [156, 160, 171, 205],
      'random and mutated JSON-RPC requests get well-formed replies',
      async (b) => {
        await fc.assert(
          fc.asyncProperty(jsonRpcRequests, async (r) => {
            // With `envelope`, the mutated body is the whole request; else it is the params.
            const request: unknown = r.envelope
              ? r.body.params
              : {
                  jsonrpc: '2.0',
                  method: r.method,
                  params: r.body.params,
                  ...(r.id === undefined ? {} : { id: r.id }),
                };
            const text = r.envelope ? r.body.text : JSON.stringify(request);
            const reply = await exchange(b.endpoint, {
              method: 'POST',
              headers: headers(r.version, r.contentType),
              body: text,
            });
            checkJsonRpcReply(reply, request);
          }),
          { numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS },
        );
        await stillServing(server, 'JSONRPC');
      },
      { only: ['JSONRPC'], timeout: 25_000 },
    );

    const rest = fc.record({ request: restRequests, version: versions, contentType: contentTypes });

    verifies(
      [156, 160, 173, 178, 205],
      'random and mutated HTTP+JSON requests get well-formed replies',
      async (b) => {
        await fc.assert(
          fc.asyncProperty(rest, async ({ request, version, contentType }) => {
            const url = `${b.endpoint}${request.path}${request.query ? `?${request.query}` : ''}`;
            const reply = await exchange(url, {
              method: request.verb,
              headers: headers(version, contentType),
              body: request.body,
            });
            checkRestReply(reply, request.verb);
          }),
          { numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS },
        );
        await stillServing(server, 'HTTP+JSON');
      },
      { only: ['HTTP+JSON'], timeout: 25_000 },
    );
  },
);
