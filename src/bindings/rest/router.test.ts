import { describe, expect, it } from 'vitest';
import { A2AError } from '../../core/errors.js';
import { matchRoute, queryFields } from './router.js';

describe('matchRoute', () => {
  it.each([
    ['POST', '/message:send', 'SendMessage', {}],
    ['POST', '/message:stream', 'SendStreamingMessage', {}],
    ['GET', '/tasks', 'ListTasks', {}],
    ['GET', '/tasks/t1', 'GetTask', { id: 't1' }],
    ['POST', '/tasks/t1:cancel', 'CancelTask', { id: 't1' }],
    ['POST', '/tasks/t1:subscribe', 'SubscribeToTask', { id: 't1' }],
    ['GET', '/tasks/t1:subscribe', 'SubscribeToTask', { id: 't1' }],
    [
      'POST',
      '/tasks/t1/pushNotificationConfigs',
      'CreateTaskPushNotificationConfig',
      { taskId: 't1' },
    ],
    [
      'GET',
      '/tasks/t1/pushNotificationConfigs',
      'ListTaskPushNotificationConfigs',
      { taskId: 't1' },
    ],
    [
      'GET',
      '/tasks/t1/pushNotificationConfigs/p1',
      'GetTaskPushNotificationConfig',
      { taskId: 't1', id: 'p1' },
    ],
    [
      'DELETE',
      '/tasks/t1/pushNotificationConfigs/p1',
      'DeleteTaskPushNotificationConfig',
      { taskId: 't1', id: 'p1' },
    ],
    ['GET', '/extendedAgentCard', 'GetExtendedAgentCard', {}],
  ])('[173] routes %s %s to %s', (method, path, operation, fields) => {
    const match = matchRoute(method, path);
    expect(match).toMatchObject({ kind: 'match', route: { operation }, fields, tenant: undefined });
  });

  it('[173] accepts every route under a /{tenant} prefix and decodes the tenant', () => {
    expect(matchRoute('POST', '/acme%2Fprod/message:send')).toMatchObject({
      kind: 'match',
      route: { operation: 'SendMessage' },
      tenant: 'acme/prod',
    });
    expect(matchRoute('GET', '/t1/tasks/x')).toMatchObject({
      route: { operation: 'GetTask' },
      fields: { id: 'x' },
      tenant: 't1',
    });
    expect(matchRoute('DELETE', '/t1/tasks/x/pushNotificationConfigs/y')).toMatchObject({
      route: { operation: 'DeleteTaskPushNotificationConfig' },
      fields: { taskId: 'x', id: 'y' },
      tenant: 't1',
    });
  });

  it('prefers the plain route over reading the first segment as a tenant', () => {
    // `/tasks/tasks` is GetTask of the task named "tasks", not ListTasks of tenant "tasks".
    expect(matchRoute('GET', '/tasks/tasks')).toMatchObject({
      route: { operation: 'GetTask' },
      fields: { id: 'tasks' },
      tenant: undefined,
    });
  });

  it('percent-decodes ids, so an encoded colon is part of the id, not a verb', () => {
    expect(matchRoute('GET', '/tasks/a%3Acancel')).toMatchObject({
      route: { operation: 'GetTask' },
      fields: { id: 'a:cancel' },
    });
    expect(matchRoute('POST', '/tasks/a%20b:cancel')).toMatchObject({
      route: { operation: 'CancelTask' },
      fields: { id: 'a b' },
    });
  });

  it('reports the allowed verbs of a known path used with another verb', () => {
    expect(matchRoute('DELETE', '/tasks/t1')).toEqual({
      kind: 'method-not-allowed',
      allow: ['GET'],
    });
    expect(matchRoute('GET', '/tasks/t1:cancel')).toEqual({
      kind: 'method-not-allowed',
      allow: ['POST'],
    });
    expect(matchRoute('PUT', '/tasks/t1:subscribe')).toEqual({
      kind: 'method-not-allowed',
      allow: ['POST', 'GET'],
    });
    expect(matchRoute('GET', '/acme/message:send')).toEqual({
      kind: 'method-not-allowed',
      allow: ['POST'],
    });
  });

  it.each(['/', '/nope', '/tasks/', '/tasks/t1/other', '/v1/card', '/a/b/c/d/e/f'])(
    'finds nothing at %s',
    (path) => {
      expect(matchRoute('GET', path)).toEqual({ kind: 'not-found' });
    },
  );

  it('rejects malformed percent-encoding as invalid params', () => {
    expect(() => matchRoute('GET', '/tasks/%E0%A4%A')).toThrow(A2AError);
  });
});

describe('queryFields', () => {
  it('[176] reads camelCase and snake_case names, booleans, and leaves numbers for the schema', () => {
    expect({
      ...queryFields('contextId=c1&page_size=20&includeArtifacts=true&status=TASK_STATE_WORKING'),
    }).toEqual({
      contextId: 'c1',
      pageSize: '20',
      includeArtifacts: true,
      status: 'TASK_STATE_WORKING',
    });
    expect({ ...queryFields('includeArtifacts=false') }).toEqual({ includeArtifacts: false });
  });

  it('[29] skips the A2A-Version service parameter', () => {
    expect({ ...queryFields('A2A-Version=1.0&historyLength=2') }).toEqual({ historyLength: '2' });
  });

  it('[176] decodes values (timestamps with + and :)', () => {
    expect(queryFields('statusTimestampAfter=2025-11-09T10%3A30%3A00Z').statusTimestampAfter).toBe(
      '2025-11-09T10:30:00Z',
    );
  });

  it('rejects booleans other than true/false', () => {
    expect(() => queryFields('includeArtifacts=1')).toThrow(/includeArtifacts/);
    expect(() => queryFields('includeArtifacts=TRUE')).toThrow(A2AError);
  });

  it('rejects a scalar field given twice', () => {
    expect(() => queryFields('pageSize=1&pageSize=2')).toThrow(/only once/);
  });

  it('[176] collects repeated fields from repeated keys and comma-separated values', () => {
    const fields = queryFields('tags=a,b&tags=c&x=1', new Set(['tags']));
    expect(fields.tags).toEqual(['a', 'b', 'c']);
    expect(fields.x).toBe('1');
  });

  it('treats names such as constructor or __proto__ as plain fields', () => {
    const fields = queryFields('constructor=1&__proto__=2');
    expect(Object.getPrototypeOf(fields)).toBeNull();
    expect(fields.constructor).toBe('1');
  });
});
