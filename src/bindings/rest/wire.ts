/** HTTP+JSON (REST) binding facts shared by client and server (spec §11, proto annotations). */
import type { OperationName } from '../../core/operations.js';

/** Preferred media type (spec §11.1, v1.0.1); `application/json` is accepted as well. */
export const A2A_JSON = 'application/a2a+json';

/** How one operation maps to HTTP: verb, path template, where the rest of the request goes. */
export interface RestRoute {
  readonly operation: OperationName;
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Segments; `{name}` binds a request field. Relative to the interface URL (+ `/{tenant}`). */
  readonly path: string;
  /** `body`: the request (minus path fields) is the JSON body; `query`: camelCase query params. */
  readonly input: 'body' | 'query' | 'none';
}

/** Every route, in match order. SubscribeToTask is reachable by GET (proto) and POST (prose). */
// prettier-ignore
export const REST_ROUTES: readonly RestRoute[] = [
  { operation: 'SendMessage', method: 'POST', path: '/message:send', input: 'body' },
  { operation: 'SendStreamingMessage', method: 'POST', path: '/message:stream', input: 'body' },
  { operation: 'ListTasks', method: 'GET', path: '/tasks', input: 'query' },
  { operation: 'CancelTask', method: 'POST', path: '/tasks/{id}:cancel', input: 'body' },
  { operation: 'SubscribeToTask', method: 'POST', path: '/tasks/{id}:subscribe', input: 'none' },
  { operation: 'SubscribeToTask', method: 'GET', path: '/tasks/{id}:subscribe', input: 'none' },
  { operation: 'GetTask', method: 'GET', path: '/tasks/{id}', input: 'query' },
  {
    operation: 'CreateTaskPushNotificationConfig',
    method: 'POST',
    path: '/tasks/{taskId}/pushNotificationConfigs',
    input: 'body',
  },
  {
    operation: 'ListTaskPushNotificationConfigs',
    method: 'GET',
    path: '/tasks/{taskId}/pushNotificationConfigs',
    input: 'query',
  },
  {
    operation: 'GetTaskPushNotificationConfig',
    method: 'GET',
    path: '/tasks/{taskId}/pushNotificationConfigs/{id}',
    input: 'none',
  },
  {
    operation: 'DeleteTaskPushNotificationConfig',
    method: 'DELETE',
    path: '/tasks/{taskId}/pushNotificationConfigs/{id}',
    input: 'none',
  },
  { operation: 'GetExtendedAgentCard', method: 'GET', path: '/extendedAgentCard', input: 'none' },
];

/** The route a client uses for an operation (POST for SubscribeToTask, as the official clients). */
export function routeFor(operation: OperationName): RestRoute {
  const route = REST_ROUTES.find((r) => r.operation === operation);
  if (!route) throw new Error(`no REST route for ${operation}`);
  return route;
}

/**
 * Fills a path template from request fields, URL-encoding each value (RFC 3986), with the
 * interface tenant as a `/{tenant}` prefix when set.
 */
export function buildPath(
  route: RestRoute,
  fields: Record<string, unknown>,
  tenant?: string,
): string {
  const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
    encodeURIComponent(scalar(fields[name])),
  );
  return tenant ? `/${encodeURIComponent(tenant)}${path}` : path;
}

function scalar(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** The names of the fields a route takes from its path. */
export function pathFields(route: RestRoute): string[] {
  return [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
}

/** Query parameters whose values are booleans or numbers (spec §11.5), for parsing. */
export const BOOLEAN_QUERY_PARAMS: ReadonlySet<string> = new Set(['includeArtifacts']);
