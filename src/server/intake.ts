/**
 * Message intake: what SendMessage and SendStreamingMessage do with an incoming message before
 * the agent runs. It starts a new task, resumes a paused one, or attaches a retry to the task its
 * first attempt created, so the agent never runs twice for one message. A retry is the same
 * message again (same messageId and the same canonical content: parts, taskId, contextId, every
 * field) from the same caller while the first attempt runs or within the idempotency window; any
 * other message is processed as the new message it is, even when it reuses a messageId (spec
 * §3.3.1: a server MAY use messageId to detect duplicate sends; a duplicate is the same message,
 * not another one under the same id).
 *
 * Content is compared only when the messageId is found (an attempt under way, a stateless reply,
 * the store's message index): a fresh messageId, the common case, costs no canonical form and no
 * hash. The index keeps a reference to the task's history entry (fingerprint.ts).
 */
import { A2AError } from '../core/errors.js';
import { isPromise, run, type Flow, type MaybePromise } from '../core/maybe-async.js';
import { newId } from '../core/ids.js';
import type { Message, SendMessageRequest } from '../core/schemas/index.js';
import { isSettled, isTerminal } from '../core/task-state.js';
import type { Scope, TaskStore } from '../stores/types.js';
import type { CallContext } from '../core/call-context.js';
import { messageSize, taskSize } from './event-size.js';
import { answerToken, indexToken } from './fingerprint.js';
import { checkParts } from './media-types.js';
import { pushNotSupported, type PushConfigs } from './push-configs.js';
import { SentMessage, SentMessages, isRetry, type Kept } from './sent-messages.js';
import { TaskBudgetError } from './task-log.js';
import { taskRecord } from './task-views.js';
import type { InterruptedTasks } from './interrupted.js';
import type { StartOptions, StartResult, TaskRunner } from './task-runner.js';

/** What the intake works with. */
export interface MessageIntakeOptions {
  store: TaskStore;
  runner: TaskRunner;
  /** The push-config operations (undefined when push is not configured). */
  push: PushConfigs | undefined;
  /** The media types the agent accepts in message parts. */
  acceptedModes: string[];
  /** Retries recognized within this window; `false`: every message is processed. */
  idempotency: IdempotencyOptions | false;
  /** What one task may hold (history and artifacts, approximate JSON bytes). */
  maxTaskBytes: number;
  /** The per-caller cap on interrupted tasks (undefined: none). */
  interrupted?: Pick<InterruptedTasks, 'admit'> | undefined;
  /** Honour `configuration.ifGenerationMatch` (A2AServerOptions.generations). */
  generations?: boolean | undefined;
}

/** Default of `MemoryLimits.maxTaskBytes`: 64 MiB. */
export const DEFAULT_MAX_TASK_BYTES = 64 * 1024 * 1024;

/** How long a retried message gets its first answer (see `A2AServerOptions.idempotency`). */
export interface IdempotencyOptions {
  /**
   * Milliseconds after the first attempt during which the same message is a retry even when
   * that attempt has settled (completed, failed, paused for input). While it still runs, the same
   * message is always a retry.
   */
  windowMs: number;
}

/**
 * The default window: 0, so the same message joins its first attempt only while that attempt
 * runs, and once it has settled is processed as a new message (the official TCK sends identical
 * messages on purpose and expects each to be processed; see docs/deployment.md).
 */
export const DEFAULT_IDEMPOTENCY_WINDOW_MS = 0;

/** Stateless replies kept for retries, at most (the oldest go first). */
const MAX_REPLIES = 1000;

/** A stateless reply kept for retries, and when it was sent. */
interface Reply {
  message: Message;
  at: number;
}

/** Turns incoming messages into executions, once per message. */
export class MessageIntake {
  /** Attempts under way, by caller, messageId and content. */
  private readonly inflight = new SentMessages<Promise<StartResult>>();
  /** Stateless replies, oldest first. */
  private readonly replies = new SentMessages<Reply>({ ordered: true });
  private readonly windowMs: number;

  constructor(private readonly options: MessageIntakeOptions) {
    this.windowMs = options.idempotency ? options.idempotency.windowMs : 0;
  }

  /**
   * Starts a new task, resumes a paused one, or (a retry: the same message again, within the
   * window) attaches to the task the first attempt created, so the agent never runs twice.
   * Synchronous when the store and the agent's first step are (core/maybe-async.ts); may throw.
   */
  startOrAttach(
    params: SendMessageRequest,
    call: CallContext,
    scope: Scope,
  ): MaybePromise<StartResult> {
    const { message, configuration } = params;
    if (configuration?.taskPushNotificationConfig && !this.options.push) pushNotSupported();
    if (!this.options.idempotency) {
      checkParts(message.parts, this.options.acceptedModes);
      return run(this.start(params, call, scope, false));
    }
    const key = `${scope.tenant}\u0000${scope.owner}\u0000${message.messageId}`;
    // Compared with another message of its key only: a fresh messageId is never canonicalized.
    const sent = new SentMessage(message);
    // Registered before anything is waited for, so concurrent retries share one attempt (one
    // that answered at once is over: there is nothing to share).
    const pending = this.inflight.has(key) ? this.inflight.find(key, sent) : undefined;
    if (pending) return pending.value;
    const attempt = run(this.attachOrStart(params, call, scope, key, sent));
    if (!isPromise(attempt)) return attempt;
    const kept = this.inflight.add(key, sent, attempt);
    const forget = () => {
      this.inflight.delete(kept);
    };
    attempt.then(forget, forget);
    return attempt;
  }

  private *attachOrStart(
    params: SendMessageRequest,
    call: CallContext,
    scope: Scope,
    key: string,
    sent: SentMessage,
  ): Flow<StartResult> {
    const { message } = params;
    const reply = this.replies.has(key) ? this.replies.find(key, sent) : undefined;
    if (reply && Date.now() - reply.value.at <= this.windowMs)
      return { message: reply.value.message };
    // A message that would start a task has its caller's interrupted tasks counted while the
    // message index is read (two reads at once, not one after the other); a retry ignores it.
    const admitting = message.taskId ? undefined : this.options.interrupted?.admit(scope);
    admitting?.catch(() => undefined);
    const { store } = this.options;
    const finding = store.findByMessageId(scope, message.messageId);
    const known = (isPromise(finding) ? yield finding : finding) as Awaited<typeof finding>;
    // The same content (taskId and contextId included) from the same caller: a retry while its
    // first attempt still runs, or within the window after that. `''`: indexed with no token.
    if (known && known.fingerprint !== '') {
      const getting = store.get(scope, known.taskId);
      const record = (isPromise(getting) ? yield getting : getting) as Awaited<typeof getting>;
      const running = record !== undefined && !isSettled(record.task.status.state);
      if (
        record &&
        (running || known.ageMs <= this.windowMs) &&
        isRetry(known.fingerprint, record.task, sent)
      ) {
        return { taskId: known.taskId, seq: record.seq, created: false };
      }
    }
    checkParts(message.parts, this.options.acceptedModes);
    const result = yield* this.start(params, call, scope, true, admitting ?? null);
    if ('message' in result) this.remember(key, sent, result.message);
    return result;
  }

  private *start(
    params: SendMessageRequest,
    call: CallContext,
    scope: Scope,
    /** Index the message for retries (fingerprint.ts makes its token). */
    index: boolean,
    /** The cap's check already started (null: none was needed); undefined: start it here. */
    admitted?: Promise<void> | null,
  ): Flow<StartResult> {
    const { message } = params;
    const { runner, push } = this.options;
    const inline = params.configuration?.taskPushNotificationConfig;
    // spec §3.2.2 / proto: an inline config registers a webhook for this request's task before
    // the agent's first event is recorded, so no update is missed.
    const register =
      inline &&
      ((taskId: string) =>
        (push ?? pushNotSupported())
          .create(scope, inline, taskId, call.protocolVersion)
          .then(() => undefined));
    if (inline) yield push?.validate(inline.url);
    // One object for the runner, its ids filled in below (no copy per start).
    const options: StartOptions = {
      scope,
      call,
      message,
      taskId: '',
      contextId: '',
      configuration: params.configuration,
      metadata: params.metadata,
      onCreated: register,
      fingerprint: undefined,
    };
    if (!message.taskId) {
      const admitting = admitted === undefined ? this.options.interrupted?.admit(scope) : admitted;
      yield admitting;
      // spec §3.4.1: a missing contextId is generated; a client-chosen new one is accepted.
      options.taskId = newId();
      options.contextId = message.contextId || newId();
      // The message is the new task's first history entry.
      if (index) options.fingerprint = indexToken(message, 0, options.taskId, options.contextId);
      const starting = runner.start(options);
      return (isPromise(starting) ? yield starting : starting) as Awaited<typeof starting>;
    }
    const reading = taskRecord(this.options.store, scope, message.taskId);
    const record = (isPromise(reading) ? yield reading : reading) as Awaited<typeof reading>;
    const { task } = record;
    if (message.contextId && message.contextId !== task.contextId) {
      throw new A2AError(
        'INVALID_PARAMS',
        `Task ${task.id} belongs to context ${task.contextId}, not ${message.contextId}`,
        {
          fieldViolations: [
            {
              field: 'message.contextId',
              description: 'does not match the context of message.taskId',
            },
          ],
          metadata: { taskId: task.id },
        },
      );
    }
    const expected = params.configuration?.ifGenerationMatch;
    if (this.options.generations && expected !== undefined) {
      checkGeneration(task.id, expected, runner.generationOf(task.id) ?? task.generation ?? 0);
    }
    const state = task.status.state;
    if (isTerminal(state)) {
      throw new A2AError(
        'UNSUPPORTED_OPERATION',
        `Task ${task.id} is ${state}: finished tasks never restart; send a new message without taskId (same contextId) to start a follow-up task`,
        {
          metadata: { taskId: task.id, state },
        },
      );
    }
    if (!isSettled(state) || runner.isRunning(task.id)) {
      throw new A2AError(
        'UNSUPPORTED_OPERATION',
        `Task ${task.id} is ${state}: send the next message when it asks for input, or cancel it`,
        {
          metadata: { taskId: task.id, state },
        },
      );
    }
    const held = taskSize(task);
    const { maxTaskBytes } = this.options;
    if (held + messageSize(message) > maxTaskBytes) {
      throw new TaskBudgetError(task.id, held + messageSize(message), maxTaskBytes);
    }
    yield register?.(task.id);
    options.taskId = task.id;
    options.contextId = task.contextId ?? newId();
    options.current = record;
    if (index) options.fingerprint = answerToken(message, task);
    const resuming = runner.start(options);
    return (isPromise(resuming) ? yield resuming : resuming) as Awaited<typeof resuming>;
  }

  /** Keeps a stateless reply for retries (in this process only: there is no task to find). */
  private remember(key: string, sent: SentMessage, message: Message): void {
    const { replies, windowMs } = this;
    const now = Date.now();
    // Replies older than the window can answer no retry any more (the default window, 0, keeps
    // them for the millisecond): their messages are not held.
    for (let old = replies.oldest(); old && now - old.value.at > windowMs; old = replies.oldest()) {
      replies.delete(old);
    }
    const same = replies.has(key) ? replies.find(key, sent) : undefined;
    if (same) replies.delete(same);
    // Kept for a while: the fingerprint, not the message (which may be large).
    if (windowMs > 0) sent.materialize();
    replies.add(key, sent, { message, at: now });
    if (replies.size > MAX_REPLIES) replies.delete(replies.oldest() as Kept<Reply>);
  }
}

/**
 * The A2A 1.1 draft precondition (spec dev-1.1 §3.2.2): a message for an existing task whose
 * `ifGenerationMatch` is not the task's current generation is refused, nothing recorded.
 */
function checkGeneration(taskId: string, expected: number, current: number): void {
  if (expected === current) return;
  throw new A2AError(
    'TASK_GENERATION_MISMATCH',
    `Task generation mismatch: expected ${expected} but current generation is ${current}; get the task again (GetTask) and decide whether to send`,
    {
      metadata: {
        taskId,
        expectedGeneration: String(expected),
        currentGeneration: String(current),
      },
    },
  );
}
