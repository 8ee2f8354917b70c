/**
 * The 0.3 gRPC requests and results ⇄ 1.0 (0.3 spec §3.2.2, §7): the messages of
 * `proto/v03/a2a.proto` as proto-JSON objects (what `fromProto`/`toProto` make of them), so the
 * task model converts with the 0.3 proto-JSON conversions HTTP+JSON 0.3 uses
 * (`v03/convert.ts`, `v03/requests.ts`). What is gRPC's own: tasks and configs are addressed by
 * resource name (`tasks/{id}`, `tasks/{id}/pushNotificationConfigs/{config}`), and the card is
 * the proto's (security schemes as the oneof wrapper, requirements as `{schemes: {name: {list}}}`,
 * which are the 1.0 forms).
 */
import { A2AError } from '../../core/errors.js';
import { majorMinor } from '../../core/interfaces.js';
import type { OperationName } from '../../core/operations.js';
import { cardTo03 } from '../v03/card.js';
import { eventFrom03, isObject, taskFrom03, type Json } from '../v03/convert.js';
import {
  createConfigFrom03,
  createConfigTo03,
  namedConfigFrom03,
  sendParamsFrom03,
  sendParamsTo03,
} from '../v03/requests.js';

const obj = (v: unknown): Json => (isObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

const TASKS = 'tasks/';
const CONFIGS = '/pushNotificationConfigs/';

/** The task id of a `tasks/{id}` resource name (`field` names it in the error). */
function taskIdOf(name: unknown, field: string): string {
  const id = typeof name === 'string' && name.startsWith(TASKS) ? name.slice(TASKS.length) : '';
  if (id === '') throw badName(field, `${TASKS}{task id}`);
  return id;
}

/** Task and config id of a `tasks/{id}/pushNotificationConfigs/{config}` resource name. */
function configIdsOf(name: unknown): { taskId: string; id: string } {
  const text = typeof name === 'string' ? name : '';
  const at = text.lastIndexOf(CONFIGS);
  const taskId = at > TASKS.length && text.startsWith(TASKS) ? text.slice(TASKS.length, at) : '';
  const id = at < 0 ? '' : text.slice(at + CONFIGS.length);
  if (taskId === '' || id === '') throw badName('name', `${TASKS}{task id}${CONFIGS}{config id}`);
  return { taskId, id };
}

function badName(field: string, form: string): A2AError {
  const description = `must be the resource name ${form}`;
  return new A2AError('INVALID_PARAMS', `Invalid params: ${field} ${description}`, {
    fieldViolations: [{ field, description }],
  });
}

/** The 1.0 parameters of a 0.3 gRPC request of `operation` (unvalidated; server side). */
export function paramsFrom03(operation: OperationName, request: Json): Json {
  switch (operation) {
    case 'SendMessage':
    case 'SendStreamingMessage':
      return sendParamsFrom03(request, 'proto');
    case 'GetTask': {
      const id = taskIdOf(request.name, 'name');
      // proto3: 0 is "not set" (the 0.3 proto's "if 0, the history will be unlimited").
      const history = request.historyLength;
      return typeof history === 'number' && history > 0 ? { id, historyLength: history } : { id };
    }
    case 'CancelTask':
    case 'SubscribeToTask':
      return { id: taskIdOf(request.name, 'name') };
    case 'CreateTaskPushNotificationConfig':
      return createConfigFrom03(taskIdOf(request.parent, 'parent'), request);
    case 'GetTaskPushNotificationConfig':
    case 'DeleteTaskPushNotificationConfig':
      return configIdsOf(request.name);
    case 'ListTaskPushNotificationConfigs':
      return { taskId: taskIdOf(request.parent, 'parent') };
    case 'GetExtendedAgentCard':
    case 'ListTasks':
      return {};
  }
}

/** The proto-JSON of the 0.3 request of `operation` for 1.0 parameters (client side). */
export function requestTo03(operation: OperationName, params: Json): Json {
  switch (operation) {
    case 'SendMessage':
    case 'SendStreamingMessage':
      return sendParamsTo03(params, 'proto');
    case 'GetTask':
      return params.historyLength === undefined
        ? { name: `${TASKS}${String(params.id)}` }
        : { name: `${TASKS}${String(params.id)}`, historyLength: params.historyLength };
    case 'CancelTask':
    case 'SubscribeToTask':
      return { name: `${TASKS}${String(params.id)}` };
    case 'CreateTaskPushNotificationConfig':
      return createConfigTo03(params);
    case 'GetTaskPushNotificationConfig':
    case 'DeleteTaskPushNotificationConfig':
      return { name: `${TASKS}${String(params.taskId)}${CONFIGS}${String(params.id)}` };
    case 'ListTaskPushNotificationConfigs':
      return { parent: `${TASKS}${String(params.taskId)}` };
    case 'GetExtendedAgentCard':
    case 'ListTasks':
      return {};
  }
}

/** The 1.0 form of a 0.3 gRPC response of `operation` (client side, unvalidated). */
export function resultFrom03(operation: OperationName, response: Json): unknown {
  switch (operation) {
    case 'SendMessage':
    case 'SendStreamingMessage':
    case 'SubscribeToTask':
      return eventFrom03(response);
    case 'GetTask':
    case 'CancelTask':
      return taskFrom03(response);
    case 'CreateTaskPushNotificationConfig':
    case 'GetTaskPushNotificationConfig':
      return namedConfigFrom03(response);
    case 'ListTaskPushNotificationConfigs':
      return { configs: list(response.configs).map(namedConfigFrom03) };
    case 'GetExtendedAgentCard':
      return cardFromProto03(response);
    case 'DeleteTaskPushNotificationConfig':
    case 'ListTasks':
      return {};
  }
}

/**
 * A 1.0 card as the 0.3 proto's AgentCard: the 0.3 card (`v03/card.ts`) with the security in the
 * proto's form, which is the 1.0 one (the JSON-RPC card's OpenAPI `type` form has no proto
 * field). Signatures are left out, as in every 0.3 card we serve (they sign the 1.0 form).
 */
export function cardToProto03(card: Json): Json {
  const out = cardTo03(card);
  delete out.securitySchemes;
  delete out.security;
  if (isObject(card.securitySchemes)) out.securitySchemes = card.securitySchemes;
  if (Array.isArray(card.securityRequirements)) out.security = card.securityRequirements;
  out.skills = list(card.skills).map((s) => {
    const skill = obj(s);
    return skill.securityRequirements === undefined
      ? skill
      : { ...skill, security: skill.securityRequirements };
  });
  return out;
}

/** A 0.3 proto AgentCard in 1.0 form (interfaces marked with the card's protocol version). */
export function cardFromProto03(card: Json): Json {
  const {
    url,
    preferredTransport,
    additionalInterfaces,
    protocolVersion,
    supportsAuthenticatedExtendedCard,
    security,
    skills,
    ...rest
  } = card;
  const version = majorMinor(typeof protocolVersion === 'string' ? protocolVersion : '0.3');
  const interfaces: Json[] = [];
  const add = (at: unknown, binding: unknown) => {
    if (typeof at !== 'string' || at === '' || typeof binding !== 'string') return;
    if (interfaces.some((i) => i.url === at && i.protocolBinding === binding)) return;
    interfaces.push({ url: at, protocolBinding: binding, protocolVersion: version });
  };
  add(
    url,
    typeof preferredTransport === 'string' && preferredTransport ? preferredTransport : 'JSONRPC',
  );
  for (const extra of list(additionalInterfaces)) add(obj(extra).url, obj(extra).transport);
  const out: Json = { ...rest, supportedInterfaces: interfaces };
  const capabilities = { ...obj(card.capabilities) };
  if (typeof supportsAuthenticatedExtendedCard === 'boolean') {
    capabilities.extendedAgentCard = supportsAuthenticatedExtendedCard;
  }
  out.capabilities = capabilities;
  if (Array.isArray(security)) out.securityRequirements = security;
  out.skills = list(skills).map((s) => {
    const { security: skillSecurity, ...skill } = obj(s);
    return Array.isArray(skillSecurity) ? { ...skill, securityRequirements: skillSecurity } : skill;
  });
  return out;
}
