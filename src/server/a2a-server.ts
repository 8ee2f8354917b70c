/**
 * A2AServer: the 11 operations with every spec rule, independent of any binding. Bindings parse
 * and validate the wire request, then call the operation with a CallContext.
 */
import { A2AError } from '../core/errors.js';
import { isPromise, runPromise, type Flow } from '../core/maybe-async.js';
import { OPERATIONS, type OperationName } from '../core/operations.js';
import {
  AgentCard,
  type AgentCapabilities,
  type AgentInterface,
  type CancelTaskRequest,
  type GetExtendedAgentCardRequest,
  type GetTaskPushNotificationConfigRequest,
  type GetTaskRequest,
  type ListTaskPushNotificationConfigsRequest,
  type ListTaskPushNotificationConfigsResponse,
  type ListTasksRequest,
  type ListTasksResponse,
  type SendMessageRequest,
  type SendMessageResponse,
  type Task,
  type TaskPushNotificationConfig,
} from '../core/schemas/index.js';
import { isSettled, isTerminal } from '../core/task-state.js';
import { describeViolations, fieldViolations } from '../core/validate.js';
import { MemoryEventBus } from '../stores/memory/event-bus.js';
import { MemoryTaskStore } from '../stores/memory/task-store.js';
import type { EventBus, Scope, TaskStore } from '../stores/types.js';
import { createAgent, type Agent } from './agent.js';
import type { CallContext } from '../core/call-context.js';
import { activateExtensions } from './extensions.js';
import { PushConfigs, pushNotSupported, type PushNotifier } from './push-configs.js';
import { DEFAULT_MAX_TASK_BYTES, MessageIntake } from './intake.js';
import { TaskOwnership } from './ownership.js';
import { recoverTask } from './recovery.js';
import { InterruptedTasks } from './interrupted.js';
import { acceptedInputModes } from './media-types.js';
import { resumeSeq } from './event-ids.js';
import { TaskLog } from './task-log.js';
import { cancelTask } from './cancel.js';
import { AUDIT_EXTENSION, AuditChain, auditExtension, auditTrail } from './audit.js';
import type { AuditSigner } from '../security/audit-head.js';
import { shownTo } from './trajectory-views.js';
import { listTaskViews, taskRecord, viewTask } from './task-views.js';
import {
  compatOf,
  DEFAULT_LIST_PAGE_BYTES,
  idempotencyOf,
  type A2AServerOptions,
  type MemoryLimits,
} from './server-options.js';
import { TaskRunner } from './task-runner.js';
import type { StreamStart } from './task-stream.js';
import { TaskStreams } from './task-streams.js';
import type { CompatVersion, StreamItem, SubscribeToTaskParams } from '../core/service.js';
import { withFields } from '../core/with-fields.js';

export type { StreamItem } from '../core/service.js';
export type { A2AServerOptions, MemoryLimits } from './server-options.js';

const PLACEHOLDER_INTERFACE: AgentInterface = {
  url: 'http://127.0.0.1/',
  protocolBinding: 'JSONRPC',
  protocolVersion: '1.0',
};

/** Serves one agent: operations, task execution, streams. */
export class A2AServer {
  readonly agent: Agent;
  readonly store: TaskStore;
  readonly bus: EventBus;
  readonly capabilities: AgentCapabilities;
  /** Leases and recovery of this instance (undefined when ownership is off). */
  readonly ownership: TaskOwnership | undefined;
  /** Expiry and per-caller cap of interrupted tasks (undefined when off). */
  readonly interrupted: InterruptedTasks | undefined;
  /** The older protocol versions served next to 1.0 (the `compat` option; empty when none). */
  readonly compat: readonly CompatVersion[];
  private readonly runner: TaskRunner;
  /** The one write path of this server's tasks (store, then bus, then push). */
  private readonly log: TaskLog;
  private readonly push: PushConfigs | undefined;
  private readonly notifier: PushNotifier | undefined;
  private readonly logger: Pick<Console, 'warn' | 'error'> | undefined;
  private readonly intake: MessageIntake;
  private interfaces: AgentInterface[] = [];
  private readonly limits: MemoryLimits;
  private readonly streams: TaskStreams;
  /** The audit chain of the write path, when `audit` is on. */
  private readonly audit: AuditChain | undefined;
  /** Signs exported chain heads (A2AServerOptions.audit.signer, or serve()'s card key). */
  private auditSigner: AuditSigner | undefined;

  constructor(options: A2AServerOptions) {
    this.agent = createAgent(options.agent);
    this.compat = compatOf(options.compat);
    this.limits = options.memory ?? {};
    this.store = options.store ?? new MemoryTaskStore();
    this.bus = options.bus ?? new MemoryEventBus();
    this.streams = new TaskStreams(this.store, this.bus, this.limits);
    const declared = this.agent.card.capabilities;
    if (declared?.pushNotifications && !options.push) {
      throw new Error('The card declares pushNotifications but no `push` option is configured');
    }
    this.capabilities = { streaming: true, ...declared, pushNotifications: Boolean(options.push) };
    if (options.audit) {
      this.audit = new AuditChain(this.store);
      this.auditSigner = options.audit === true ? undefined : options.audit.signer;
      const extensions = this.capabilities.extensions ?? [];
      if (!extensions.some((e) => e.uri === AUDIT_EXTENSION)) {
        this.capabilities = { ...this.capabilities, extensions: [...extensions, auditExtension] };
      }
    }
    const card = this.agentCard([PLACEHOLDER_INTERFACE]);
    const checked = AgentCard.safeParse(card);
    if (!checked.success) {
      throw new Error(`Invalid agent card: ${describeViolations(fieldViolations(checked.error))}`);
    }
    const acceptedModes = acceptedInputModes(card);
    const logger = options.logger === null ? undefined : (options.logger ?? console);
    this.logger = logger;
    const configs = options.push?.configs ?? this.store.facets?.pushConfigs;
    if (options.push && !configs) {
      throw new Error('Push notifications need a store that keeps push configs (`push.configs`)');
    }
    this.notifier = options.push?.notifier;
    this.push =
      options.push && configs && new PushConfigs(this.store, configs, options.push.notifier);
    this.log = new TaskLog({
      store: this.store,
      bus: this.bus,
      notifier: this.notifier,
      pushConfigs: configs,
      logger,
      transitions: options.log,
      maxTaskBytes: options.memory?.maxTaskBytes ?? DEFAULT_MAX_TASK_BYTES,
      // A store in the server's heap has its chain derived on read: the writes hash nothing.
      audit: this.audit?.onWrite ? this.audit : undefined,
    });
    // A store this server created itself is used by no other instance: nothing to own.
    const facets = options.store && options.ownership !== false ? this.store.facets : undefined;
    const leases =
      facets?.leasesByDefault === false && options.ownership === undefined
        ? undefined
        : facets?.leases;
    const recovery = { log: this.log, agent: this.agent, logger };
    this.ownership =
      leases &&
      new TaskOwnership(
        {
          leases,
          bus: this.bus,
          logger,
          isRunning: (taskId) => this.runner.isRunning(taskId),
          recover: (orphan) => recoverTask(orphan, { ...recovery, runner: this.runner }),
        },
        options.ownership || {},
      );
    this.runner = new TaskRunner({
      log: this.log,
      agent: this.agent,
      exposeErrors: options.exposeErrors ?? false,
      logger,
      ownership: this.ownership,
      generations: options.generations ?? false,
    });
    this.interrupted =
      options.interrupted === false
        ? undefined
        : new InterruptedTasks(
            this.log,
            this.store.facets?.interrupted,
            options.interrupted,
            logger,
          );
    this.intake = new MessageIntake({
      interrupted: this.interrupted,
      store: this.store,
      runner: this.runner,
      push: this.push,
      acceptedModes,
      idempotency: idempotencyOf(options.idempotency),
      maxTaskBytes: options.memory?.maxTaskBytes ?? DEFAULT_MAX_TASK_BYTES,
      generations: options.generations ?? false,
    });
    this.ownership?.start();
    this.interrupted?.start();
  }

  /**
   * Tells the server where it is served (`serve()` does it once listening), so {@link publicCard}
   * and the card handed to `Agent.extendedCard` list these interfaces, in preference order.
   */
  setInterfaces(interfaces: readonly AgentInterface[]): void {
    this.interfaces = [...interfaces];
  }

  /** True when the audit chain is on (A2AServerOptions.audit). */
  get audited(): boolean {
    return this.audit !== undefined;
  }

  /**
   * Signs the heads of exported audit chains with this key from now on (serve() passes its card
   * signing key once it knows the JWKS URL); only when audit is on and no signer was given.
   */
  setAuditSigner(signer: AuditSigner): void {
    if (this.audit !== undefined) this.auditSigner ??= signer;
  }

  /**
   * The public Agent Card as served: the interfaces given to {@link setInterfaces} (or the card's
   * own), capabilities as configured. Unsigned.
   */
  publicCard(): AgentCard {
    return this.agentCard(this.interfaces);
  }

  /** The public Agent Card with these interfaces (in preference order). */
  agentCard(interfaces: AgentInterface[]): AgentCard {
    const { card } = this.agent;
    return {
      ...card,
      supportedInterfaces: card.supportedInterfaces ?? interfaces,
      capabilities: this.capabilities,
      defaultInputModes: card.defaultInputModes ?? ['text/plain'],
      defaultOutputModes: card.defaultOutputModes ?? ['text/plain'],
    };
  }

  /** Dispatches a unary operation by its spec name (params already validated). */
  invoke(name: OperationName, params: unknown, call: CallContext): Promise<unknown> {
    const method = OPERATIONS[name].method;
    if (method === 'sendStreamingMessage' || method === 'subscribeToTask') {
      return Promise.reject(new Error(`${name} is a streaming operation: use stream()`));
    }
    return (this[method] as (p: unknown, c: CallContext) => Promise<unknown>).call(
      this,
      params,
      call,
    );
  }

  /** Opens one of the two streaming operations by its spec name (params already validated). */
  stream(
    name: 'SendStreamingMessage' | 'SubscribeToTask',
    params: unknown,
    call: CallContext,
  ): Promise<AsyncIterable<StreamItem>> {
    return name === 'SendStreamingMessage'
      ? this.sendStreamingMessage(params as SendMessageRequest, call)
      : this.subscribeToTask(params as SubscribeToTaskParams, call);
  }

  /**
   * SendMessage (spec §3.1.1): blocks until terminal or interrupted unless `returnImmediately`.
   * One flow (core/maybe-async.ts): it waits only for what is not there yet (with the memory
   * store, only for the agent's steps).
   */
  sendMessage(params: SendMessageRequest, call: CallContext): Promise<SendMessageResponse> {
    return runPromise(this.sending(params, call));
  }

  private *sending(params: SendMessageRequest, call: CallContext): Flow<SendMessageResponse> {
    const scope = this.admit(call);
    const starting = this.intake.startOrAttach(params, call, scope);
    const started = (isPromise(starting) ? yield starting : starting) as Awaited<typeof starting>;
    if ('message' in started) return shownTo(call, { message: started.message });
    const historyLength = params.configuration?.historyLength;
    if (!params.configuration?.returnImmediately) {
      // Running here: wait for the execution itself. Attached to a task another call (or
      // another instance) runs: follow its events until it settles.
      if (started.settled) yield started.settled();
      // As this execution recorded it when it settled (GetOptions.written: no read needed).
      const written = started.written?.();
      const viewing = viewTask(this.store, scope, started.taskId, { historyLength }, written);
      const task = (isPromise(viewing) ? yield viewing : viewing) as Awaited<typeof viewing>;
      // Never a non-final answer: when the execution here stopped early (its lease was taken
      // over), or the task runs elsewhere, follow it until it settles.
      if (isSettled(task.status.state)) return shownTo(call, { task });
      yield this.streams.follow(scope, started.taskId, isSettled, call.signal);
    }
    const viewing = this.view(scope, started.taskId, { historyLength });
    const task = (isPromise(viewing) ? yield viewing : viewing) as Awaited<typeof viewing>;
    return shownTo(call, { task });
  }

  /** SendStreamingMessage (spec §3.1.2): the Task (or one Message), then every update in order. */
  sendStreamingMessage(
    params: SendMessageRequest,
    call: CallContext,
  ): Promise<AsyncIterable<StreamItem>> {
    return runPromise(this.streaming(params, call));
  }

  /** One flow, as `sending` (with the memory store, nothing to wait for: the stream opens at once). */
  private *streaming(
    params: SendMessageRequest,
    call: CallContext,
  ): Flow<AsyncIterable<StreamItem>> {
    const scope = this.admit(call);
    this.requireStreaming();
    const starting = this.intake.startOrAttach(params, call, scope);
    const started = (isPromise(starting) ? yield starting : starting) as Awaited<typeof starting>;
    // A message-only stream is one event; it gets an id like every SSE event.
    if ('message' in started) {
      return single({ id: '1', event: shownTo(call, { message: started.message }) });
    }
    // A new task replays its log from the creation snapshot; a resumed one starts with the task
    // as of the answer, then every event after it; a retried message joins at the current state.
    const start: StreamStart = started.created
      ? { mode: 'replay', afterSeq: 0 }
      : started.resumed
        ? {
            mode: 'replay',
            afterSeq: started.seq,
            first: { id: String(started.seq), event: { task: started.resumed } },
          }
        : { mode: 'snapshot' };
    const opening = this.streams.forCaller(scope, started.taskId, call, start, isSettled);
    return (isPromise(opening) ? yield opening : opening) as Awaited<typeof opening>;
  }

  /**
   * GetTask (spec §3.1.3). With the audit extension activated (and audit on), the task's audit
   * chain comes in `metadata["urn:a2a-kit:extension:audit:v1"]` (./audit.ts).
   */
  async getTask(params: GetTaskRequest, call: CallContext): Promise<Task> {
    const scope = this.admit(call);
    const task = shownTo(call, await this.view(scope, params.id, params));
    if (this.audit === undefined || !call.activatedExtensions?.includes(AUDIT_EXTENSION)) {
      return task;
    }
    const trail = await auditTrail(this.store, scope, params.id, this.auditSigner);
    return withFields(task, { metadata: withFields(task.metadata, { [AUDIT_EXTENSION]: trail }) });
  }

  /** ListTasks (spec §3.1.4): the caller's tasks, newest status first, cursor pagination. */
  async listTasks(params: ListTasksRequest, call: CallContext): Promise<ListTasksResponse> {
    const maxBytes = this.limits.listPageBytes ?? DEFAULT_LIST_PAGE_BYTES;
    return shownTo(call, await listTaskViews(this.store, this.admit(call), params, maxBytes));
  }

  /** CancelTask (spec §3.1.5): repeat cancels return the canceled task; other terminal states refuse. */
  async cancelTask(params: CancelTaskRequest, call: CallContext): Promise<Task> {
    const scope = this.admit(call);
    return shownTo(call, await cancelTask(this.log, this.runner, scope, params.id));
  }

  /**
   * SubscribeToTask (spec §3.1.6): the current Task, then live updates until a terminal state.
   * With `Last-Event-ID` the stream instead continues after that event, replaying what was missed.
   */
  async subscribeToTask(
    params: SubscribeToTaskParams,
    call: CallContext,
  ): Promise<AsyncIterable<StreamItem>> {
    const scope = this.admit(call);
    this.requireStreaming();
    const record = await taskRecord(this.store, scope, params.id);
    const afterSeq = await resumeSeq(this.store, scope, params.id, params.lastEventId, record.seq);
    const terminal = isTerminal(record.task.status.state);
    if (terminal && (afterSeq === undefined || afterSeq >= record.seq)) {
      throw new A2AError(
        'UNSUPPORTED_OPERATION',
        `Task ${params.id} is ${record.task.status.state}: a finished task has no updates to subscribe to`,
        {
          metadata: { taskId: params.id },
        },
      );
    }
    const start =
      afterSeq === undefined
        ? { mode: 'snapshot' as const }
        : { mode: 'replay' as const, afterSeq };
    return this.streams.forCaller(scope, params.id, call, start, isTerminal);
  }

  /** CreateTaskPushNotificationConfig (spec §3.1.7): the stored config with its id. */
  async createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    call: CallContext,
  ): Promise<TaskPushNotificationConfig> {
    const scope = this.admit(call);
    return this.pushConfigs().create(scope, params, params.taskId, call.protocolVersion);
  }

  /** GetTaskPushNotificationConfig (spec §3.1.8). */
  async getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    call: CallContext,
  ): Promise<TaskPushNotificationConfig> {
    const scope = this.admit(call);
    return this.pushConfigs().get(scope, params.taskId, params.id);
  }

  /** ListTaskPushNotificationConfigs (spec §3.1.9). */
  async listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
    call: CallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    const scope = this.admit(call);
    return this.pushConfigs().list(scope, params.taskId, params);
  }

  /** DeleteTaskPushNotificationConfig (spec §3.1.10): idempotent. */
  async deleteTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    call: CallContext,
  ): Promise<Record<string, never>> {
    const scope = this.admit(call);
    return this.pushConfigs().delete(scope, params.taskId, params.id);
  }

  /** GetExtendedAgentCard (spec §3.1.11): capability gated. */
  async getExtendedAgentCard(
    _params: GetExtendedAgentCardRequest,
    call: CallContext,
  ): Promise<AgentCard> {
    this.admit(call);
    if (!this.capabilities.extendedAgentCard) {
      throw new A2AError(
        'UNSUPPORTED_OPERATION',
        'This agent does not offer an extended agent card (capabilities.extendedAgentCard is not set)',
      );
    }
    const source = this.agent.extendedCard;
    if (!source)
      throw new A2AError(
        'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
        'The agent declares an extended card but none is configured',
      );
    return typeof source === 'function' ? source(call, this.publicCard()) : source;
  }

  /** Waits until no execution runs in this process (graceful shutdown, tests). */
  idle(): Promise<void> {
    return this.runner.idle();
  }

  /** Closes the store and the bus. */
  async close(): Promise<void> {
    await this.notifier?.close?.();
    await this.ownership?.close();
    await this.interrupted?.close();
    await this.store.close();
    await this.bus.close();
  }

  /** Per-call checks every operation shares: extensions; returns the caller's scope. */
  private admit(call: CallContext): Scope {
    call.activatedExtensions = activateExtensions(
      this.capabilities.extensions ?? [],
      call.requestedExtensions ?? [],
      call.protocolVersion === '0.3' ? 'X-A2A-Extensions' : undefined,
    );
    return { tenant: call.tenant ?? '', owner: call.principal?.id ?? '' };
  }

  private requireStreaming(): void {
    if (!this.capabilities.streaming) {
      throw new A2AError(
        'UNSUPPORTED_OPERATION',
        'This agent does not support streaming (capabilities.streaming is false)',
      );
    }
  }

  /** The push-config operations, or PUSH_NOTIFICATION_NOT_SUPPORTED (spec §3.3.4). */
  private pushConfigs(): PushConfigs {
    return this.push ?? pushNotSupported();
  }

  private view(scope: Scope, taskId: string, options: { historyLength?: number | undefined }) {
    return viewTask(this.store, scope, taskId, options);
  }
}

async function* single(item: StreamItem): AsyncIterable<StreamItem> {
  yield item;
}
