/**
 * The bridge's pure parts: the routing policy of mcpAgent (message → tool call), command-line
 * splitting of `a2a serve --mcp`, tool names and schemas from skills (spec §4.4.5 AgentSkill), the
 * artifact viewers' paging and the state mapping (spec §4.1.3).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { dataPart, textPart, userMessage } from '../core/parts.js';
import type { AgentCard, Task } from '../core/schemas/index.js';
import { TASK_STATES } from '../core/schemas/task.js';
import { displayLines, viewData, viewText, WRAP_CHARS } from './artifact-viewers.js';
import { splitCommand } from './connect-mcp.js';
import { MCP_STATUS_OF, mcpCodeOf } from './mapping.js';
import { taskResult } from './render.js';
import { routeMessage } from './tool-routing.js';
import { bridgeTools, slug } from './tools.js';

const tools: Tool[] = [
  {
    name: 'add',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
  },
  { name: 'shout', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
];

describe('routeMessage', () => {
  it.each([
    [
      'a data part {tool, arguments}',
      userMessage([dataPart({ tool: 'add', arguments: { a: 1 } })]),
      { tool: 'add', arguments: { a: 1 } },
    ],
    [
      'text "tool {json}"',
      userMessage('add {"a": 2, "b": 3}'),
      { tool: 'add', arguments: { a: 2, b: 3 } },
    ],
    [
      'text "tool rest" to the one string argument',
      userMessage('shout hi there'),
      { tool: 'shout', arguments: { text: 'hi there' } },
    ],
    [
      'a data part with metadata.tool',
      userMessage([dataPart({ a: 5 })], { metadata: { tool: 'add' } }),
      { tool: 'add', arguments: { a: 5 } },
    ],
  ])('routes %s', (_name, message, expected) => {
    expect(routeMessage(message, tools)).toEqual(expected);
  });

  it('refuses what it cannot route, naming the tools', () => {
    expect(routeMessage(userMessage('hello'), tools)).toMatchObject({
      refused: expect.stringContaining('add, shout'),
    });
    expect(routeMessage(userMessage([dataPart({ tool: 'nope' })]), tools)).toMatchObject({
      refused: expect.stringContaining('No tool named "nope"'),
    });
    expect(routeMessage(userMessage([dataPart({ a: 1 })]), tools)).toMatchObject({
      refused: expect.stringContaining('Say which tool'),
    });
    expect(routeMessage(userMessage('add 1 2'), tools)).toMatchObject({
      refused: expect.stringContaining('structured arguments'),
    });
  });

  it('sends any text to a server with a single tool', () => {
    expect(routeMessage(userMessage([textPart('loud words')]), [tools[1] as Tool])).toEqual({
      tool: 'shout',
      arguments: { text: 'loud words' },
    });
  });
});

describe('splitCommand', () => {
  it.each([
    ['node server.js --port 3', ['node', 'server.js', '--port', '3']],
    [`npx -y "@scope/pkg name" 'a b'`, ['npx', '-y', '@scope/pkg name', 'a b']],
    ['a\\ b ""', ['a b', '']],
  ])('splits %s', (line, words) => {
    expect(splitCommand(line)).toEqual(words);
  });
  it('refuses an unclosed quote', () => {
    expect(() => splitCommand('node "x')).toThrow(/unclosed/);
  });
});

const card = {
  name: 'My Agent!',
  description: 'd',
  version: '1',
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  supportedInterfaces: [],
  skills: [
    { id: 'Look Up', name: 'Look up', description: 'Finds', tags: ['x'], examples: ['find cats'] },
    {
      id: 'look_up',
      name: 'Again',
      description: 'Same slug',
      tags: ['x'],
      inputModes: ['application/json'],
    },
    { id: 'send_message', name: 'Clash', description: 'Generic name', tags: ['x'] },
  ],
} as AgentCard;

describe('bridgeTools', () => {
  it('names tools <agent>_<skill> as MCP-valid slugs, unique, never shadowing the generic tools', () => {
    const names = bridgeTools(card).map((t) => t.name);
    expect(names.slice(0, 3)).toEqual([
      'my_agent_look_up',
      'my_agent_look_up_2',
      'my_agent_send_message',
    ]);
    expect(names).toContain('send_message');
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
    expect(slug('***')).toBe('agent');
  });

  it('derives the input schema from the input modes, or takes a declared one', () => {
    const [text, data] = bridgeTools(card);
    expect(text?.inputSchema.required).toEqual(['text']);
    expect(data?.inputSchema.required).toEqual(['data']);
    expect(text?.description).toContain('"find cats"');
    const declared = bridgeTools(card, {
      prefix: 'p',
      schemas: {
        'Look Up': { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
      },
    });
    expect(declared[0]?.name).toBe('p_look_up');
    expect(declared[0]?.inputSchema).toMatchObject({
      required: ['q'],
      properties: { q: { type: 'string' }, taskId: {} },
    });
  });
});

const task = (parts: Task['artifacts']): Task => ({
  id: 't1',
  status: { state: 'TASK_STATE_COMPLETED' },
  artifacts: parts,
});

describe('artifact viewers', () => {
  it('view_text_artifact pages by lines and wraps long lines', () => {
    const long = 'x'.repeat(WRAP_CHARS * 2 + 1);
    expect(displayLines(`a\n${long}`)).toHaveLength(4);
    const t = task([
      {
        artifactId: 'a1',
        parts: [textPart(Array.from({ length: 25 }, (_, i) => `line ${i}`).join('\n'))],
      },
    ]);
    const first = viewText(t, { limit: 10 });
    expect(first.structuredContent).toEqual({
      artifactId: 'a1',
      totalLines: 25,
      offset: 0,
      nextOffset: 10,
    });
    const last = viewText(t, { offset: 20, limit: 10 });
    expect((last.content[0] as { text: string }).text.split('\n')).toEqual([
      'line 20',
      'line 21',
      'line 22',
      'line 23',
      'line 24',
    ]);
    expect(last.structuredContent).not.toHaveProperty('nextOffset');
    expect(viewText(t, { artifactId: 'nope' }).isError).toBe(true);
  });

  it('view_data_artifact walks a JSON Pointer and windows arrays and objects', () => {
    const t = task([
      {
        artifactId: 'd1',
        parts: [dataPart({ rows: Array.from({ length: 50 }, (_, i) => ({ i })), 'a/b': { c: 1 } })],
      },
    ]);
    const page = viewData(t, { path: '/rows', offset: 40, limit: 5 });
    expect(JSON.parse((page.content[0] as { text: string }).text)).toEqual([
      { i: 40 },
      { i: 41 },
      { i: 42 },
      { i: 43 },
      { i: 44 },
    ]);
    expect(page.structuredContent).toMatchObject({ total: 50, offset: 40, nextOffset: 45 });
    expect(JSON.parse((viewData(t, { path: '/a~1b/c' }).content[0] as { text: string }).text)).toBe(
      1,
    );
    expect(viewData(t, { path: '/missing' }).isError).toBe(true);
    expect(viewData(t, { path: 'rows' }).isError).toBe(true);
  });

  it('a tool result cuts a large artifact and names the viewer', () => {
    const t = task([{ artifactId: 'a1', parts: [textPart('y'.repeat(10_000))] }]);
    const text = (taskResult(t, 100).content[1] as { text: string }).text;
    expect(text.length).toBeLessThan(400);
    expect(text).toContain('view_text_artifact {"taskId": "t1", "artifactId": "a1"}');
  });
});

describe('mapping', () => {
  it('maps every A2A task state to an MCP task status', () => {
    for (const state of TASK_STATES)
      expect(MCP_STATUS_OF[state]).toMatch(/^(working|input_required|completed|failed|cancelled)$/);
    expect(MCP_STATUS_OF.TASK_STATE_AUTH_REQUIRED).toBe('input_required');
    expect(MCP_STATUS_OF.TASK_STATE_REJECTED).toBe('failed');
  });
  it('maps A2A errors to MCP error codes', () => {
    expect(mcpCodeOf('TASK_NOT_FOUND')).toBe(-32602);
    expect(mcpCodeOf('INVALID_REQUEST')).toBe(-32600);
    expect(mcpCodeOf('UNAVAILABLE')).toBe(-32603);
  });
});
