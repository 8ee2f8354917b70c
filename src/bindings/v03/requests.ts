/**
 * The 0.3 ⇄ 1.0 conversions of operation parameters and results (0.3 spec §7; spec §3.1): send
 * configuration (`blocking` ⇄ `returnImmediately`, `pushNotificationConfig` ⇄
 * `taskPushNotificationConfig`), task queries (`{id}`), and push configs (0.3 nests the config
 * under `pushNotificationConfig` and lists `authentication.schemes[]`; 1.0 is flat with one
 * `scheme`). The task model itself converts in `convert.ts`.
 */
import type { OperationName } from '../../core/operations.js';
import type { StreamResponse } from '../../core/schemas/index.js';
import {
  eventFrom03,
  eventTo03,
  isObject,
  messageFrom03,
  messageTo03,
  taskFrom03,
  taskTo03,
  type Json,
} from './convert.js';
import type { Dialect } from './wire.js';

const obj = (v: unknown): Json => (isObject(v) ? v : {});

/** 0.3 `PushNotificationConfig` (+ task id) → flat 1.0 TaskPushNotificationConfig. */
export function pushConfigFrom03(taskId: unknown, raw: unknown): Json {
  const config = obj(raw);
  const out: Json = { url: config.url };
  if (taskId !== undefined) out.taskId = taskId;
  // 0.3 lets a config go without an id and reads it back by the task id (0.3 spec §7.5-§7.6).
  const id = config.id === undefined || config.id === '' ? taskId : config.id;
  if (id !== undefined) out.id = id;
  if (typeof config.token === 'string' && config.token !== '') out.token = config.token;
  const auth = config.authentication;
  if (isObject(auth)) {
    // 1.0 keeps one scheme: the first the 0.3 list names (documented loss).
    const scheme = Array.isArray(auth.schemes) ? auth.schemes[0] : auth.scheme;
    const a: Json = { scheme };
    if (typeof auth.credentials === 'string' && auth.credentials !== '') {
      a.credentials = auth.credentials;
    }
    out.authentication = a;
  }
  return out;
}

/** Flat 1.0 TaskPushNotificationConfig → 0.3 `PushNotificationConfig` (no task id). */
export function pushConfigTo03(config: Json): Json {
  const out: Json = { url: config.url };
  if (config.id !== undefined) out.id = config.id;
  if (config.token !== undefined) out.token = config.token;
  if (isObject(config.authentication)) {
    const a: Json = { schemes: [config.authentication.scheme] };
    if (config.authentication.credentials !== undefined) {
      a.credentials = config.authentication.credentials;
    }
    out.authentication = a;
  }
  return out;
}

/**
 * The proto-JSON TaskPushNotificationConfig (0.3 REST and gRPC): the resource name
 * `tasks/{task}/pushNotificationConfigs/{config}` plus the nested config.
 */
export function namedConfigTo03(config: Json): Json {
  const name = `tasks/${String(config.taskId)}/pushNotificationConfigs/${String(config.id)}`;
  return { name, pushNotificationConfig: pushConfigTo03(config) };
}

/** A proto-JSON TaskPushNotificationConfig → flat 1.0 config (task id from the name). */
export function namedConfigFrom03(raw: unknown): Json {
  const value = obj(raw);
  const name = typeof value.name === 'string' ? value.name.split('/') : [];
  return pushConfigFrom03(name[1], value.pushNotificationConfig);
}

/**
 * The proto-JSON CreateTaskPushNotificationConfigRequest → 1.0 config of task `taskId`. The
 * proto's request wraps the config twice (`{config: {pushNotificationConfig}}`, id in
 * `configId`); some clients send the TaskPushNotificationConfig itself.
 */
export function createConfigFrom03(taskId: unknown, raw: Json): Json {
  const wrapper = isObject(raw.config) ? raw.config : raw;
  const config = isObject(wrapper.pushNotificationConfig) ? wrapper.pushNotificationConfig : {};
  const id = config.id ?? (typeof raw.configId === 'string' ? raw.configId : undefined);
  return pushConfigFrom03(taskId, id === undefined ? config : { ...config, id });
}

/** A 1.0 config → the proto-JSON CreateTaskPushNotificationConfigRequest. */
export function createConfigTo03(request: Json): Json {
  const id = typeof request.id === 'string' ? request.id : '';
  return {
    parent: `tasks/${String(request.taskId)}`,
    config: {
      name: `tasks/${String(request.taskId)}/pushNotificationConfigs/${id}`,
      pushNotificationConfig: pushConfigTo03(request),
    },
    ...(request.id === undefined ? {} : { configId: request.id }),
  };
}

/**
 * 0.3 `MessageSendParams` (`dialect`) → 1.0 SendMessageRequest (unvalidated). JSON-RPC 0.3
 * `blocking` defaults to waiting, like 1.0 without `returnImmediately`; in proto-JSON an absent
 * `blocking` is proto3's `false` (what the 0.3 SDKs read it as), so only `true` waits there.
 */
export function sendParamsFrom03(raw: Json, dialect: Dialect): Json {
  const out: Json = { message: messageFrom03(raw.message ?? raw.request) };
  if (raw.metadata !== undefined) out.metadata = raw.metadata;
  if (isObject(raw.configuration)) {
    const c = raw.configuration;
    const config: Json = {};
    if (c.acceptedOutputModes !== undefined) config.acceptedOutputModes = c.acceptedOutputModes;
    const history = c.historyLength ?? c.history_length;
    if (history !== undefined) config.historyLength = history;
    const push = c.pushNotificationConfig ?? c.pushNotification ?? c.push_notification;
    if (isObject(push)) config.taskPushNotificationConfig = pushConfigFrom03(undefined, push);
    const waits = dialect === 'jsonrpc' ? c.blocking !== false : c.blocking === true;
    if (!waits) config.returnImmediately = true;
    out.configuration = config;
  }
  return out;
}

/** 1.0 SendMessageRequest → 0.3 `MessageSendParams` in `dialect`. */
export function sendParamsTo03(request: Json, dialect: Dialect): Json {
  const out: Json = { message: messageTo03(obj(request.message), dialect) };
  if (isObject(request.configuration)) {
    const c = request.configuration;
    const config: Json = { blocking: c.returnImmediately !== true };
    if (c.acceptedOutputModes !== undefined) config.acceptedOutputModes = c.acceptedOutputModes;
    if (c.historyLength !== undefined) config.historyLength = c.historyLength;
    if (isObject(c.taskPushNotificationConfig)) {
      const push = pushConfigTo03(c.taskPushNotificationConfig);
      if (dialect === 'jsonrpc') config.pushNotificationConfig = push;
      else config.pushNotification = push;
    }
    out.configuration = config;
  } else {
    out.configuration = { blocking: true };
  }
  if (request.metadata !== undefined) out.metadata = request.metadata;
  return out;
}

/**
 * The 1.0 parameters of a 0.3 JSON-RPC call (0.3 spec §7), unvalidated: the server validates
 * them with the 1.0 schema, so bad 0.3 input gets INVALID_PARAMS naming the field.
 */
export function jsonRpcParamsFrom03(operation: OperationName, params: Json): Json {
  switch (operation) {
    case 'SendMessage':
    case 'SendStreamingMessage':
      return sendParamsFrom03(params, 'jsonrpc');
    case 'GetTask':
      return pick({ id: params.id, historyLength: params.historyLength });
    case 'CancelTask':
      return pick({ id: params.id, metadata: params.metadata });
    case 'SubscribeToTask':
      return pick({ id: params.id });
    case 'CreateTaskPushNotificationConfig':
      return pushConfigFrom03(params.taskId, params.pushNotificationConfig);
    case 'GetTaskPushNotificationConfig':
      return pick({ taskId: params.id, id: params.pushNotificationConfigId ?? params.id });
    case 'DeleteTaskPushNotificationConfig':
      return pick({ taskId: params.id, id: params.pushNotificationConfigId });
    case 'ListTaskPushNotificationConfigs':
      return pick({ taskId: params.id });
    case 'GetExtendedAgentCard':
    case 'ListTasks':
      return {};
  }
}

/**
 * A 1.0 result of `operation` as the proto-JSON of its 0.3 answer (the HTTP+JSON and gRPC
 * servers); `card` writes the extended card in the binding's form. Operations that answer
 * nothing give `{}`.
 */
export function protoResultTo03(
  operation: OperationName,
  result: unknown,
  card: (card: Json) => Json,
): Json {
  const value = isObject(result) ? result : {};
  switch (operation) {
    case 'SendMessage':
    case 'SendStreamingMessage':
    case 'SubscribeToTask':
      return eventTo03(value as StreamResponse, 'proto');
    case 'GetTask':
    case 'CancelTask':
      return taskTo03(value, 'proto');
    case 'CreateTaskPushNotificationConfig':
    case 'GetTaskPushNotificationConfig':
      return namedConfigTo03(value);
    case 'ListTaskPushNotificationConfigs':
      return {
        configs: (Array.isArray(value.configs) ? value.configs : []).map((c) =>
          namedConfigTo03(isObject(c) ? c : {}),
        ),
      };
    case 'GetExtendedAgentCard':
      return card(value);
    case 'DeleteTaskPushNotificationConfig':
    case 'ListTasks':
      return {};
  }
}

/** The 0.3 parameters of a 1.0 request for a 0.3 JSON-RPC call (client side). */
export function jsonRpcParamsTo03(operation: OperationName, request: Json): Json {
  switch (operation) {
    case 'SendMessage':
    case 'SendStreamingMessage':
      return sendParamsTo03(request, 'jsonrpc');
    case 'GetTask':
      return pick({ id: request.id, historyLength: request.historyLength });
    case 'CancelTask':
      return pick({ id: request.id, metadata: request.metadata });
    case 'SubscribeToTask':
      return pick({ id: request.id });
    case 'CreateTaskPushNotificationConfig':
      return { taskId: request.taskId, pushNotificationConfig: pushConfigTo03(request) };
    case 'GetTaskPushNotificationConfig':
    case 'DeleteTaskPushNotificationConfig':
      return pick({ id: request.taskId, pushNotificationConfigId: request.id });
    case 'ListTaskPushNotificationConfigs':
      return pick({ id: request.taskId });
    case 'GetExtendedAgentCard':
    case 'ListTasks':
      return {};
  }
}

/** A 1.0 result of `operation` in 0.3 JSON-RPC form (0.3 spec §7). */
export function jsonRpcResultTo03(operation: OperationName, result: unknown): unknown {
  const value = obj(result);
  switch (operation) {
    case 'SendMessage':
      return 'task' in value
        ? taskTo03(obj(value.task), 'jsonrpc')
        : messageTo03(obj(value.message), 'jsonrpc');
    case 'GetTask':
    case 'CancelTask':
      return taskTo03(value, 'jsonrpc');
    case 'CreateTaskPushNotificationConfig':
    case 'GetTaskPushNotificationConfig':
      return taskPushConfigTo03(value);
    case 'ListTaskPushNotificationConfigs':
      // 0.3 answers a bare array (0.3 spec §7.7).
      return Array.isArray(value.configs)
        ? value.configs.map((c) => taskPushConfigTo03(obj(c)))
        : [];
    case 'DeleteTaskPushNotificationConfig':
      return null;
    case 'SendStreamingMessage':
    case 'SubscribeToTask':
    case 'ListTasks':
    case 'GetExtendedAgentCard':
      return result;
  }
}

/** A 0.3 JSON-RPC result in 1.0 form (client side), unvalidated. */
export function jsonRpcResultFrom03(operation: OperationName, result: unknown): unknown {
  const value = obj(result);
  switch (operation) {
    case 'SendMessage':
      return eventFrom03(value);
    case 'GetTask':
    case 'CancelTask':
      return taskFrom03(value);
    case 'CreateTaskPushNotificationConfig':
    case 'GetTaskPushNotificationConfig':
      return taskPushConfigFrom03(value);
    case 'ListTaskPushNotificationConfigs':
      return { configs: (Array.isArray(result) ? result : []).map(taskPushConfigFrom03) };
    case 'DeleteTaskPushNotificationConfig':
      return {};
    case 'SendStreamingMessage':
    case 'SubscribeToTask':
    case 'ListTasks':
    case 'GetExtendedAgentCard':
      return result;
  }
}

/** 1.0 config → 0.3 `TaskPushNotificationConfig` `{taskId, pushNotificationConfig}`. */
export function taskPushConfigTo03(config: Json): Json {
  return { taskId: config.taskId, pushNotificationConfig: pushConfigTo03(config) };
}

/** 0.3 `TaskPushNotificationConfig` → flat 1.0 config. */
export function taskPushConfigFrom03(raw: unknown): Json {
  const value = obj(raw);
  return pushConfigFrom03(value.taskId, value.pushNotificationConfig);
}

function pick(values: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(values)) if (v !== undefined) out[k] = v;
  return out;
}
