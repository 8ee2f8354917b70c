/**
 * The four push-config operations (spec §3.1.7-3.1.10) over a PushConfigStore, and the notifier
 * hook through which appended task events reach the push delivery pipeline.
 */
import { A2AError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type {
  ListTaskPushNotificationConfigsResponse,
  StreamResponse,
  TaskPushNotificationConfig,
} from '../core/schemas/index.js';
import type {
  LogEntry,
  PushConfigStore,
  PushOutbox,
  Scope,
  StoredPushConfig,
  TaskStore,
} from '../stores/types.js';

/** Receives every appended task entry once it is durable; delivers push notifications. */
export interface PushNotifier {
  /** Checks a webhook URL when a config is created; throws A2AError INVALID_PARAMS saying why. */
  validateUrl?(url: string): Promise<void> | void;
  /**
   * Called after entries were appended to a task, in log order (entries the task store did not
   * already enqueue through {@link PushNotifier.fanout}).
   */
  notify(scope: Scope, taskId: string, entries: readonly LogEntry[]): Promise<void>;
  /**
   * Durable fan-out: when the task store keeps this very outbox and these configs, the task log
   * has the store enqueue the deliveries in the append's own transaction (a crash between the
   * append and the enqueue cannot lose one) and calls `wake` instead of `notify`.
   */
  readonly fanout?: PushFanout | undefined;
  /** Stops delivery workers. */
  close?(): Promise<void>;
}

/** What a notifier with a durable outbox lets the task store enqueue for it. */
export interface PushFanout {
  readonly outbox: PushOutbox;
  /** Where its deliveries' configs are read. */
  readonly configs: PushConfigStore;
  /** Which log entries are pushed. */
  readonly pushes: (event: StreamResponse) => boolean;
  /** Deliveries were enqueued: look for work now. */
  wake(): void;
}

const MAX_PAGE = 100;

/** Create/Get/List/Delete of push configs, scoped to the caller and its task. */
export class PushConfigs {
  constructor(
    private readonly tasks: TaskStore,
    private readonly configs: PushConfigStore,
    private readonly notifier: PushNotifier,
  ) {}

  /**
   * Stores a config for an existing task, generating its id when empty (spec §3.1.7), with the
   * A2A version it is registered over (`protocolVersion`, absent for 1.0) for its deliveries.
   */
  async create(
    scope: Scope,
    params: TaskPushNotificationConfig,
    taskId = params.taskId,
    protocolVersion?: string,
  ): Promise<TaskPushNotificationConfig> {
    if (!taskId) {
      throw new A2AError('INVALID_PARAMS', 'taskId is required', {
        fieldViolations: [{ field: 'taskId', description: 'is required' }],
      });
    }
    await this.requireTask(scope, taskId);
    await this.notifier.validateUrl?.(params.url);
    const { tenant: _tenant, ...rest } = params;
    const stored: StoredPushConfig = { ...rest, taskId, id: params.id || newId() };
    if (protocolVersion !== undefined && protocolVersion !== '1.0') {
      stored.protocolVersion = protocolVersion;
    }
    await this.configs.putPushConfig(scope, stored);
    return publicConfig(stored);
  }

  /** Checks a webhook URL with the notifier's guard (INVALID_PARAMS saying why). */
  async validate(url: string): Promise<void> {
    await this.notifier.validateUrl?.(url);
  }

  /** One config; a missing task or config is TASK_NOT_FOUND (spec §3.1.8). */
  async get(scope: Scope, taskId: string, id: string): Promise<TaskPushNotificationConfig> {
    await this.requireTask(scope, taskId);
    const config = await this.configs.getPushConfig(scope, taskId, id);
    if (!config) {
      throw new A2AError('TASK_NOT_FOUND', `No push notification config ${id} for task ${taskId}`, {
        metadata: { taskId, configId: id },
      });
    }
    return publicConfig(config);
  }

  /** The task's configs, paged by config id (spec §3.1.9). */
  async list(
    scope: Scope,
    taskId: string,
    page: { pageSize?: number | undefined; pageToken?: string | undefined },
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    await this.requireTask(scope, taskId);
    const limit = Math.min(page.pageSize || MAX_PAGE, MAX_PAGE);
    const configs = await this.configs.listPushConfigs(scope, taskId, {
      limit: limit + 1,
      ...(page.pageToken ? { afterId: page.pageToken } : {}),
    });
    const more = configs.length > limit;
    const shown = more ? configs.slice(0, limit) : configs;
    return {
      configs: shown.map(publicConfig),
      nextPageToken: more ? (shown[shown.length - 1]?.id ?? '') : '',
    };
  }

  /** Deletes a config; deleting it again is not an error (spec §3.1.10: idempotent). */
  async delete(scope: Scope, taskId: string, id: string): Promise<Record<string, never>> {
    await this.requireTask(scope, taskId);
    await this.configs.deletePushConfig(scope, taskId, id);
    return {};
  }

  private async requireTask(scope: Scope, taskId: string): Promise<void> {
    if (!(await this.tasks.get(scope, taskId))) {
      throw new A2AError('TASK_NOT_FOUND', `Task ${taskId} not found`, { metadata: { taskId } });
    }
  }
}

/** PUSH_NOTIFICATION_NOT_SUPPORTED (spec §3.3.4): push is not configured on this server. */
export function pushNotSupported(): never {
  throw new A2AError(
    'PUSH_NOTIFICATION_NOT_SUPPORTED',
    'This agent does not support push notifications (capabilities.pushNotifications is false)',
  );
}

/** A stored config as the operations return it: the spec object, without what only we keep. */
function publicConfig(config: StoredPushConfig): TaskPushNotificationConfig {
  const { protocolVersion: _version, ...spec } = config;
  return spec;
}
