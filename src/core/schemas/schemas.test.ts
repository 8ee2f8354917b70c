import { describe, expect, it } from 'vitest';
import { AgentCard, Message, Part, SecurityScheme, StreamResponse, Task } from './index.js';
import { ListTasksRequest, SendMessageRequest } from './requests.js';

const validMessage = { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };

describe('ProtoJSON reading', () => {
  it('[42,47] accepts snake_case field names and ignores unknown fields', () => {
    const parsed = Message.parse({
      message_id: 'm1',
      context_id: 'c1',
      role: 'ROLE_USER',
      parts: [{ text: 'x' }],
      bogus: 1,
    });
    expect(parsed).toEqual({
      messageId: 'm1',
      contextId: 'c1',
      role: 'ROLE_USER',
      parts: [{ text: 'x' }],
    });
  });

  it('[43] accepts integer enums and emits their names', () => {
    expect(Message.parse({ ...validMessage, role: 2 }).role).toBe('ROLE_AGENT');
    const task = Task.parse({ id: 't', status: { state: 6 } });
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });

  it('[43] rejects UNSPECIFIED and unknown enum values', () => {
    expect(Message.safeParse({ ...validMessage, role: 'ROLE_UNSPECIFIED' }).success).toBe(false);
    expect(Message.safeParse({ ...validMessage, role: 0 }).success).toBe(false);
    expect(Message.safeParse({ ...validMessage, role: 'user' }).success).toBe(false);
  });

  it('[44,45] normalizes timestamps to UTC with Z and milliseconds', () => {
    const task = Task.parse({
      id: 't',
      status: { state: 'TASK_STATE_WORKING', timestamp: '2025-10-28T12:30:00+02:00' },
    });
    expect(task.status.timestamp).toBe('2025-10-28T10:30:00.000Z');
    expect(Task.safeParse({ id: 't', status: { state: 2, timestamp: 'yesterday' } }).success).toBe(
      false,
    );
  });

  it('[46,53] rejects a message missing REQUIRED fields or with no parts', () => {
    expect(Message.safeParse({ role: 'ROLE_USER', parts: [{ text: 'x' }] }).success).toBe(false);
    expect(Message.safeParse({ ...validMessage, parts: [] }).success).toBe(false);
    expect(Message.safeParse({ ...validMessage, messageId: '' }).success).toBe(false);
  });

  it('[49] requires exactly one content member in a Part, with no kind', () => {
    expect(Part.safeParse({ text: 'a' }).success).toBe(true);
    expect(Part.safeParse({ data: null }).success).toBe(true);
    expect(Part.safeParse({ data: [1, 2], mediaType: 'application/json' }).success).toBe(true);
    expect(Part.safeParse({}).success).toBe(false);
    expect(Part.safeParse({ text: 'a', url: 'https://x' }).success).toBe(false);
    expect(Part.safeParse({ kind: 'text' }).success).toBe(false);
  });

  it('[51] requires base64 in raw parts', () => {
    expect(Part.safeParse({ raw: 'aGVsbG8=' }).success).toBe(true);
    expect(Part.safeParse({ raw: 'not base64!' }).success).toBe(false);
  });

  it('[56] requires exactly one payload in a StreamResponse', () => {
    expect(StreamResponse.safeParse({ message: validMessage }).success).toBe(true);
    expect(StreamResponse.safeParse({}).success).toBe(false);
    expect(
      StreamResponse.safeParse({ message: validMessage, task: { id: 't', status: { state: 1 } } })
        .success,
    ).toBe(false);
  });

  it('[57] requires exactly one variant in a SecurityScheme', () => {
    expect(SecurityScheme.safeParse({ httpAuthSecurityScheme: { scheme: 'Bearer' } }).success).toBe(
      true,
    );
    expect(SecurityScheme.safeParse({ type: 'http', scheme: 'bearer' }).success).toBe(false);
    expect(
      SecurityScheme.safeParse({
        httpAuthSecurityScheme: { scheme: 'Bearer' },
        mtlsSecurityScheme: {},
      }).success,
    ).toBe(false);
  });

  it('[99] validates ListTasks paging and historyLength ranges', () => {
    expect(ListTasksRequest.safeParse({ pageSize: 100 }).success).toBe(true);
    expect(ListTasksRequest.safeParse({ pageSize: '20' }).data?.pageSize).toBe(20);
    for (const pageSize of [0, 101, 1.5, 'x'])
      expect(ListTasksRequest.safeParse({ pageSize }).success).toBe(false);
    expect(ListTasksRequest.safeParse({ historyLength: -1 }).success).toBe(false);
    expect(ListTasksRequest.safeParse({ status: 'TASK_STATE_NOPE' }).success).toBe(false);
  });

  it('reads snake_case nested requests', () => {
    const req = SendMessageRequest.parse({
      message: validMessage,
      configuration: { return_immediately: true, history_length: 3 },
    });
    expect(req.configuration).toEqual({ returnImmediately: true, historyLength: 3 });
  });
});

describe('AgentCard', () => {
  const card = {
    name: 'Echo',
    description: 'Repeats you',
    version: '1.0.0',
    supportedInterfaces: [
      { url: 'https://x/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 'S', description: 'd', tags: ['t'] }],
  };

  it('[3,5,6] accepts a complete card', () => {
    expect(AgentCard.safeParse(card).success).toBe(true);
  });

  it.each([
    'name',
    'description',
    'version',
    'supportedInterfaces',
    'capabilities',
    'defaultInputModes',
  ])('[3] rejects a card without %s', (field) => {
    const broken: Record<string, unknown> = { ...card };
    delete broken[field];
    expect(AgentCard.safeParse(broken).success).toBe(false);
  });

  it('[4] rejects empty REQUIRED arrays and skills without tags', () => {
    expect(AgentCard.safeParse({ ...card, supportedInterfaces: [] }).success).toBe(false);
    expect(
      AgentCard.safeParse({ ...card, skills: [{ id: 's', name: 'S', description: 'd', tags: [] }] })
        .success,
    ).toBe(false);
  });
});
