/**
 * Operation middleware (docs/middleware.md): a log line per operation, a per-caller quota on
 * messages, and a rule that refuses some messages. They run for every operation on every binding
 * (JSON-RPC, HTTP+JSON and, here, gRPC), after the built-in access control.
 */
import { serve } from 'a2a-kit/node';
import { A2AError, createAgent, textOf, type OperationMiddleware } from 'a2a-kit/server';

/** One line per operation: which, over which binding, for whom, how long, how it ended. */
const logRequests: OperationMiddleware = async (operation, _params, call, next) => {
  const started = Date.now();
  const who = call.principal?.id ?? call.remoteAddress ?? 'anonymous';
  try {
    const result = await next();
    console.log(
      `${operation} via ${call.protocolBinding} by ${who}: ok in ${Date.now() - started} ms`,
    );
    return result;
  } catch (error) {
    const code = error instanceof A2AError ? error.code : 'INTERNAL';
    console.log(`${operation} via ${call.protocolBinding} by ${who}: ${code}`);
    throw error;
  }
};

/** At most 100 messages per caller for the life of the process. */
const sent = new Map<string, number>();
const messageQuota: OperationMiddleware = async (operation, params, call, next) => {
  if (operation === 'SendMessage' || operation === 'SendStreamingMessage') {
    const who = call.principal?.id ?? call.remoteAddress ?? 'anonymous';
    const count = (sent.get(who) ?? 0) + 1;
    sent.set(who, count);
    if (count > 100) {
      // A refusal: HTTP 429 with this header on both HTTP bindings, RESOURCE_EXHAUSTED on gRPC.
      throw new A2AError('RATE_LIMITED', 'at most 100 messages per caller', {
        headers: { 'retry-after': '3600' },
      });
    }
  }
  return next(params);
};

/** Custom authorization: nobody may ask for the secret. */
const noSecrets: OperationMiddleware = async (operation, params, _call, next) => {
  const message = (params as { message?: { parts: { text?: string }[] } }).message;
  if (message?.parts.some((part) => part.text?.includes('secret'))) {
    throw new A2AError('PERMISSION_DENIED', `${operation}: this agent does not talk about secrets`);
  }
  return next();
};

const echo = createAgent({
  card: {
    name: 'Echo with hooks',
    description: 'Repeats what you say, with middleware around it',
    version: '1.0.0',
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes your text', tags: ['demo'] }],
  },
  async *execute({ message, task }) {
    yield task.completed(`You said: ${textOf(message)}`);
  },
});

const { url, grpcUrl } = await serve(echo, {
  port: 8770,
  grpc: true,
  middleware: [logRequests, messageQuota, noSecrets],
});
console.log(`Agent Card: ${url}/.well-known/agent-card.json (gRPC on ${grpcUrl})`);
