/**
 * a2a-kit/schema: the JSON Schemas compile under a real JSON Schema validator (Ajv, draft
 * 2020-12), accept what a2a-kit really sends (the demo card, tasks, messages and stream events
 * of a real server), and refuse what the zod schemas behind them refuse (spec §4, §5.7; oneofs of
 * §4.1.6 Part, §3.1 SendMessageResponse and StreamResponse).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { validateCardJson } from '../cli/commands/card-validate.js';
import { OPERATIONS, type OperationName } from '../core/operations.js';
import { userMessage } from '../core/parts.js';
import type { StreamResponse } from '../core/schemas/index.js';
import { demoAgent } from '../demo/agent.js';
import { A2AServer } from '../server/a2a-server.js';
import { WIRE_OBJECTS, jsonSchema, operationSchemas, type WireObjectName } from './index.js';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const validators = new Map<WireObjectName, ReturnType<typeof ajv.compile>>();
const valid = (name: WireObjectName, value: unknown) => {
  let validate = validators.get(name);
  if (validate === undefined) {
    validate = ajv.compile(jsonSchema(name));
    validators.set(name, validate);
  }
  return validate(value);
};
const card = new A2AServer({ agent: demoAgent, logger: null }).agentCard([
  { url: 'http://127.0.0.1:8765/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
]);

describe('a2a-kit/schema', () => {
  it('compiles every schema under draft 2020-12, each with its $id', () => {
    for (const name of Object.keys(WIRE_OBJECTS) as WireObjectName[]) {
      const schema = jsonSchema(name);
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema.$id).toBe(`urn:a2a-kit:schema:1.0:${name}`);
      expect(() => new Ajv2020({ strict: false }).compile(schema)).not.toThrow();
    }
  });

  it('gives every operation a request and a response schema (spec §3.1)', () => {
    for (const name of Object.keys(OPERATIONS) as OperationName[]) {
      const { request, response } = operationSchemas(name);
      expect(request.type, name).toBe('object');
      expect(response.type, name).toBe('object');
    }
    expect(operationSchemas('SendMessage').request).toBe(jsonSchema('SendMessageRequest'));
    expect(operationSchemas('GetTask').response).toBe(jsonSchema('Task'));
  });

  it('accepts the Agent Card a real server serves', () => {
    expect(valid('AgentCard', card), JSON.stringify(ajv.errors)).toBe(true);
  });

  it('accepts the tasks, messages and stream events a real server produces', async () => {
    const server = new A2AServer({ agent: demoAgent, logger: null });
    const request = { message: userMessage('story 3') };
    expect(valid('SendMessageRequest', request), JSON.stringify(ajv.errors)).toBe(true);
    const events: StreamResponse[] = [];
    for await (const item of await server.sendStreamingMessage(request, {}))
      events.push(item.event);
    expect(events.length).toBeGreaterThan(3);
    for (const event of events)
      expect(valid('StreamResponse', event), JSON.stringify(ajv.errors)).toBe(true);
    const reply = await server.sendMessage({ message: userMessage('echo hi') }, {});
    expect(valid('SendMessageResponse', reply), JSON.stringify(ajv.errors)).toBe(true);
    const list = await server.listTasks({}, {});
    expect(valid('ListTasksResponse', list), JSON.stringify(ajv.errors)).toBe(true);
  });

  it('states the proto oneofs: exactly one member, as zod checks (spec §4.1.6)', () => {
    const cases: [WireObjectName, unknown][] = [
      ['Part', {}],
      ['Part', { text: 'a', data: { x: 1 } }],
      ['SendMessageResponse', {}],
      [
        'StreamResponse',
        {
          task: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } },
          message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'x' }] },
        },
      ],
    ];
    for (const [name, value] of cases) {
      expect(WIRE_OBJECTS[name].safeParse(value).success, `zod ${name}`).toBe(false);
      expect(valid(name, value), `schema ${name} ${JSON.stringify(value)}`).toBe(false);
    }
    expect(valid('Part', { text: 'a' })).toBe(true);
  });

  it('leaves objects open: unknown fields are ignored by readers (spec §5.7)', () => {
    expect(valid('Part', { text: 'a', futureField: 1 })).toBe(true);
    expect(valid('AgentCard', { ...card, someExtension: { x: 1 } })).toBe(true);
  });

  it('refuses the cards `a2a card validate` refuses (one source for both)', () => {
    const broken: unknown[] = [
      { ...card, name: undefined },
      { ...card, supportedInterfaces: [] },
      { ...card, skills: [{ id: 's', name: 'S', description: 'd', tags: [] }] },
      { ...card, capabilities: { streaming: 'yes' } },
      { ...card, version: '' },
    ];
    for (const value of broken) {
      const json = JSON.parse(JSON.stringify(value)) as unknown;
      expect(validateCardJson(json, 'test').valid).toBe(false);
      expect(valid('AgentCard', json), JSON.stringify(json).slice(0, 80)).toBe(false);
    }
    expect(validateCardJson(JSON.parse(JSON.stringify(card)), 'test').valid).toBe(true);
  });
});
