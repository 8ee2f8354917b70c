/**
 * A paused A2A task as an MCP elicitation (MCP spec 2025-11-25, "Elicitation"): INPUT_REQUIRED
 * asks the agent's question in a one-field form; AUTH_REQUIRED sends the user to the sign-in URL
 * the agent named (URL mode) and continues once they are back, or asks them to confirm in a form
 * when the agent named no URL or the client has no URL mode. The answer continues the same task.
 */
import type {
  ClientCapabilities,
  ElicitRequest,
  ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { newId } from '../core/ids.js';
import { textOf, textPart } from '../core/parts.js';
import type { Part, Task } from '../core/schemas/index.js';

/** Sends one elicitation request to the MCP client (the request handler's `sendRequest`). */
export type Elicit = (params: ElicitRequest['params']) => Promise<ElicitResult>;

/** The first http(s) URL the agent gave in its status message (a URL part, or in its text). */
export function signInUrl(task: Task): string | undefined {
  const parts = task.status.message?.parts ?? [];
  const url = parts.find((p) => typeof p.url === 'string' && /^https?:\/\//.test(p.url))?.url;
  return url ?? /https?:\/\/[^\s"'<>)]+/.exec(textOf(task.status.message))?.[0];
}

/**
 * How the bridge asks the MCP user, given what the client declared; undefined when it cannot
 * elicit at all (then a paused task is reported with how to continue).
 */
export function askUser(
  capabilities: ClientCapabilities | undefined,
  elicit: Elicit,
): ((task: Task) => Promise<Part[] | undefined>) | undefined {
  const elicitation = capabilities?.elicitation;
  if (!elicitation) return undefined;
  const form = elicitation.form !== undefined || elicitation.url === undefined;
  const urlMode = elicitation.url !== undefined;
  return async (task) => {
    const question = textOf(task.status.message) || 'The agent needs more input.';
    if (task.status.state === 'TASK_STATE_AUTH_REQUIRED') {
      const url = signInUrl(task);
      if (url && urlMode) {
        const reply = await elicit({ mode: 'url', message: question, url, elicitationId: newId() });
        return reply.action === 'accept' ? [textPart('Authorization completed.')] : undefined;
      }
      if (!form) return undefined;
      const reply = await elicit({
        mode: 'form',
        message: question,
        requestedSchema: {
          type: 'object',
          properties: { done: { type: 'boolean', title: 'I have granted the authorization' } },
          required: ['done'],
        },
      });
      return reply.action === 'accept' && reply.content?.done === true
        ? [textPart('Authorization granted.')]
        : undefined;
    }
    if (!form) return undefined;
    const reply = await elicit({
      mode: 'form',
      message: question,
      requestedSchema: {
        type: 'object',
        properties: { answer: { type: 'string', title: 'Answer', description: question } },
        required: ['answer'],
      },
    });
    const answer = reply.content?.answer;
    return reply.action === 'accept' && answer !== undefined
      ? [textPart(String(answer))]
      : undefined;
  };
}
