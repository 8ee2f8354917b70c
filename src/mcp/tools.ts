/**
 * The MCP tools an A2A agent is offered as: one per skill (stable names from the agent's name and
 * the skill id, an input schema from the skill's input modes or a schema the caller declares, the
 * skill's description and examples), plus the generic task tools and the artifact viewers.
 */
import type { AgentCard, AgentSkill } from '../core/schemas/index.js';

/** A JSON Schema object, as MCP tools carry it. */
export type JsonSchemaObject = { type: 'object'; [key: string]: unknown };

/** One tool as `tools/list` answers it. */
export interface BridgeTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchemaObject;
  /** The skill the tool sends to (per-skill tools only). */
  skill?: AgentSkill;
  execution?: { taskSupport: 'optional' };
  annotations?: Record<string, unknown>;
}

/** MCP tool names: 1..128 of `A-Za-z0-9_-.` (MCP spec 2025-11-25, "Tool names"). */
export function slug(text: string, max = 40): string {
  const s = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return (s || 'agent').slice(0, max).replace(/_+$/, '');
}

const TEXT = /^text\//;
const JSON_MODE = /json/;

const continuation = {
  taskId: {
    type: 'string',
    description: 'Continue this A2A task (one that asked for input) instead of starting a new one.',
  },
  contextId: { type: 'string', description: 'Keep the conversation: the contextId of a task.' },
} as const;

/** The input schema of a skill's tool: text and/or data by its input modes. */
function skillSchema(skill: AgentSkill, card: AgentCard): JsonSchemaObject {
  const modes = skill.inputModes ?? card.defaultInputModes;
  const text = modes.length === 0 || modes.some((m) => TEXT.test(m));
  const data = modes.some((m) => JSON_MODE.test(m));
  const properties: Record<string, unknown> = {};
  if (text) properties.text = { type: 'string', description: 'The message text.' };
  if (data) properties.data = { type: 'object', description: 'Structured input (a data part).' };
  const schema: JsonSchemaObject = {
    type: 'object',
    properties: { ...properties, ...continuation },
  };
  // With one way in, it is required; with two, either will do.
  if (text !== data) schema.required = [text ? 'text' : 'data'];
  return schema;
}

function skillDescription(skill: AgentSkill, card: AgentCard): string {
  const examples = skill.examples?.length
    ? ` Examples: ${skill.examples.map((e) => JSON.stringify(e)).join(', ')}.`
    : '';
  return `${skill.description}${examples} (A2A skill "${skill.id}" of ${card.name}; long work stays an A2A task: continue or inspect it with send_message, get_task, cancel_task.)`;
}

/** Options of {@link bridgeTools}. */
export interface BridgeToolOptions {
  /** Prefix of the per-skill tool names (default: the agent's name as a slug). */
  prefix?: string | undefined;
  /** Input schemas declared for skills by id (replace the schema made from the input modes). */
  schemas?: Readonly<Record<string, JsonSchemaObject>> | undefined;
}

/** Every tool of the agent: per-skill tools first, then the generic ones. */
export function bridgeTools(card: AgentCard, options: BridgeToolOptions = {}): BridgeTool[] {
  const prefix = options.prefix ?? slug(card.name);
  const used = new Set(GENERIC_TOOLS.map((t) => t.name));
  const perSkill = card.skills.map((skill): BridgeTool => {
    let name = `${prefix}_${slug(skill.id, 80)}`.slice(0, 120);
    for (let n = 2; used.has(name); n++) name = `${prefix}_${slug(skill.id, 80)}_${n}`;
    used.add(name);
    const declared = options.schemas?.[skill.id];
    return {
      name,
      title: skill.name,
      description: skillDescription(skill, card),
      inputSchema: declared
        ? { ...declared, properties: { ...(declared.properties as object), ...continuation } }
        : skillSchema(skill, card),
      skill,
      execution: { taskSupport: 'optional' },
    };
  });
  return [...perSkill, ...GENERIC_TOOLS];
}

const taskId = { type: 'string', description: 'The A2A task id.' } as const;
const readOnly = { readOnlyHint: true, openWorldHint: false };

/** The generic tools every bridged agent has. */
export const GENERIC_TOOLS: readonly BridgeTool[] = [
  {
    name: 'send_message',
    description:
      'Send a message to the agent (A2A SendMessage): starts a task, or continues one that asked for input when taskId is given. Answers when the task ends or pauses.',
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string', description: 'The message text.' },
        data: { type: 'object', description: 'Structured input (a data part).' },
        ...continuation,
      },
    },
    execution: { taskSupport: 'optional' },
  },
  {
    name: 'get_task',
    description: 'The state, status message and artifacts (summarized) of an A2A task.',
    inputSchema: { type: 'object', properties: { taskId }, required: ['taskId'] },
    annotations: readOnly,
  },
  {
    name: 'cancel_task',
    description: 'Cancel an A2A task that is still running or waiting for input.',
    inputSchema: { type: 'object', properties: { taskId }, required: ['taskId'] },
    annotations: { destructiveHint: true, idempotentHint: true },
  },
  {
    name: 'list_tasks',
    description: 'List A2A tasks, newest first; page with pageToken.',
    inputSchema: {
      type: 'object',
      properties: {
        contextId: { type: 'string' },
        status: {
          type: 'string',
          description: 'Only tasks in this state, e.g. TASK_STATE_WORKING.',
        },
        pageSize: { type: 'integer', minimum: 1, maximum: 100 },
        pageToken: { type: 'string' },
      },
    },
    annotations: readOnly,
  },
  {
    name: 'view_text_artifact',
    description:
      'Read a text artifact of a task by lines, a page at a time, instead of all of it at once.',
    inputSchema: {
      type: 'object',
      properties: {
        taskId,
        artifactId: { type: 'string', description: 'Default: the first artifact.' },
        offset: { type: 'integer', minimum: 0, description: 'First line (0-based); default 0.' },
        limit: { type: 'integer', minimum: 1, maximum: 1000, description: 'Lines; default 100.' },
      },
      required: ['taskId'],
    },
    annotations: readOnly,
  },
  {
    name: 'view_data_artifact',
    description:
      'Read a data (JSON) artifact of a task piece by piece: a JSON Pointer path into it, and a window of array items or object keys.',
    inputSchema: {
      type: 'object',
      properties: {
        taskId,
        artifactId: { type: 'string', description: 'Default: the first artifact with data.' },
        path: { type: 'string', description: 'JSON Pointer (RFC 6901), e.g. /rows; default "".' },
        offset: { type: 'integer', minimum: 0, description: 'First item or key; default 0.' },
        limit: { type: 'integer', minimum: 1, maximum: 500, description: 'Items; default 20.' },
      },
      required: ['taskId'],
    },
    annotations: readOnly,
  },
];
