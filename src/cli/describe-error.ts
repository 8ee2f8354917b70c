/**
 * Turns any failure into what the user sees: an exit code, one line saying what happened and,
 * where possible, a hint saying what to do (reach the agent, authenticate, fix the usage).
 */
import { A2AError } from '../core/errors.js';
import { MissingDependencyError } from '../core/missing-dependency.js';
import { PROTOCOL_VERSION, majorMinor } from '../core/interfaces.js';
import type { AgentCard } from '../core/schemas/index.js';
import { WELL_KNOWN_CARD_PATH } from '../client/card-resolver.js';
import { describeSecuritySchemes } from '../client/credentials.js';
import { IncompatibleAgentError, TransportError } from '../transport/errors.js';
import { CliError, EXIT, type ExitCode } from './exit-codes.js';

/** What the CLI knows when a call fails. */
export interface ErrorContext {
  /** The URL the user typed. */
  url?: string | undefined;
  /** The card, once fetched. */
  card?: AgentCard | undefined;
  /** True while the Agent Card is being fetched. */
  discovering?: boolean | undefined;
  /** The task a stream was following when it failed. */
  taskId?: string | undefined;
}

/** A failure as reported to the user. */
export interface Report {
  exitCode: ExitCode;
  /** `A2AError` code, `TransportError` code, or `USAGE`/`CLI`. */
  code: string;
  message: string;
  hint?: string | undefined;
}

const SERVE_HINT = 'is the agent running? (start one with `a2a serve`)';

/** The report of `error`, thrown anywhere in a command. */
export function describeError(error: unknown, context: ErrorContext = {}): Report {
  if (error instanceof CliError) {
    const code = error.exitCode === EXIT.USAGE ? 'USAGE' : 'CLI';
    return { exitCode: error.exitCode, code, message: error.message, hint: error.hint };
  }
  if (error instanceof MissingDependencyError) {
    const hint = `install it: ${error.install}${error.instead ? `; ${error.instead}` : ''}`;
    return { exitCode: EXIT.USAGE, code: 'MISSING_DEPENDENCY', message: error.problem, hint };
  }
  if (error instanceof A2AError) return agentError(error);
  if (error instanceof IncompatibleAgentError) return incompatible(error);
  if (error instanceof TransportError) return transportError(error, context);
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: EXIT.TRANSPORT, code: 'UNEXPECTED', message };
}

function agentError(error: A2AError): Report {
  const base = { exitCode: EXIT.AGENT_ERROR, code: error.code };
  // ErrorInfo metadata the message does not already say (servers often repeat the task id).
  const meta = Object.entries(error.metadata)
    .filter(([, v]) => !error.message.includes(v))
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  const message = `${error.code}: ${error.message}${meta ? ` (${meta})` : ''}`;
  const fields = error.fieldViolations.map((v) => `${v.field}: ${v.description}`).join('; ');
  switch (error.code) {
    case 'TASK_NOT_FOUND':
      return { ...base, message, hint: 'check the task id: `a2a list <url>` shows the tasks' };
    case 'TASK_NOT_CANCELABLE':
      return {
        ...base,
        message,
        hint: 'the task has already ended: `a2a get <url> <id>` shows it',
      };
    case 'UNSUPPORTED_OPERATION':
      return { ...base, message, hint: unsupportedHint(error) };
    case 'VERSION_NOT_SUPPORTED':
      return {
        ...base,
        message: `version mismatch: the agent refused A2A ${PROTOCOL_VERSION}: ${error.message}; this client speaks ${PROTOCOL_VERSION}`,
      };
    case 'TASK_GENERATION_MISMATCH':
      return {
        ...base,
        message,
        hint: 'the task changed since you read it: `a2a get <url> <id>` shows it, then decide whether to send again',
      };
    case 'INVALID_PARAMS':
      return {
        ...base,
        message: fields && !message.includes(fields) ? `${message}: ${fields}` : message,
      };
    case 'PUSH_NOTIFICATION_NOT_SUPPORTED':
    case 'CONTENT_TYPE_NOT_SUPPORTED':
    case 'INVALID_AGENT_RESPONSE':
    case 'EXTENDED_AGENT_CARD_NOT_CONFIGURED':
    case 'EXTENSION_SUPPORT_REQUIRED':
    case 'PARSE_ERROR':
    case 'INVALID_REQUEST':
    case 'METHOD_NOT_FOUND':
    case 'METHOD_NOT_ALLOWED':
    case 'PAYLOAD_TOO_LARGE':
    case 'UNSUPPORTED_MEDIA_TYPE':
    case 'RATE_LIMITED':
    case 'UNAVAILABLE':
    case 'INTERNAL':
      return { ...base, message };
    case 'UNAUTHENTICATED':
    case 'PERMISSION_DENIED':
      return { ...base, exitCode: EXIT.AUTH, message };
  }
}

const TERMINAL = /COMPLETED|FAILED|CANCELED|REJECTED/;

function unsupportedHint(error: A2AError): string | undefined {
  if (/stream/i.test(error.message) && !TERMINAL.test(error.message)) {
    return 'the agent does not stream: drop --stream (or use `a2a get` to poll)';
  }
  if (TERMINAL.test(error.metadata.state ?? error.message)) {
    return 'a finished task never changes (spec §3.1): send without --task to start a new one (add --context <id> to stay in the conversation)';
  }
  return undefined;
}

function incompatible(error: IncompatibleAgentError): Report {
  const versions = [...new Set(error.offered.map((i) => majorMinor(i.protocolVersion)))];
  if (!versions.includes(PROTOCOL_VERSION)) {
    return {
      exitCode: EXIT.TRANSPORT,
      code: 'VERSION_MISMATCH',
      message: `version mismatch: the agent speaks A2A ${versions.join(', ')}; this client speaks ${PROTOCOL_VERSION}`,
      hint: 'upgrade the agent to A2A 1.0, or use a client for its version',
    };
  }
  const bindings = [...new Set(error.offered.map((i) => i.protocolBinding))];
  return {
    exitCode: EXIT.TRANSPORT,
    code: 'NO_USABLE_INTERFACE',
    message: error.message,
    hint: `pick one the agent offers with --binding (${bindings.join(', ')})`,
  };
}

function transportError(error: TransportError, context: ErrorContext): Report {
  const base = { exitCode: EXIT.TRANSPORT as ExitCode, code: error.code };
  const where = context.url ?? error.url ?? 'the agent';
  if (error.status === 401 || error.status === 403) return authError(error, context);
  if (context.discovering && isNotAnAgent(error)) {
    const why = error.status === 404 || error.status === 410 ? notFound(error) : reason(error);
    return { ...base, code: 'NOT_AN_AGENT', message: `${where} is not an A2A agent: ${why}` };
  }
  switch (error.code) {
    case 'NETWORK': {
      const detail = /^cannot reach \S+: (.*?)(?: \([A-Z_]+\))?$/.exec(error.message)?.[1];
      if (detail !== undefined) {
        return { ...base, message: `cannot reach ${where}: ${detail} — ${SERVE_HINT}` };
      }
      return { ...base, message: error.message, hint: SERVE_HINT };
    }
    case 'TIMEOUT': {
      const taskId = error.taskId ?? context.taskId;
      const look = taskId
        ? `\`a2a get ${where} ${taskId}\` shows the task; `
        : `\`a2a list ${where}\` shows recent tasks; `;
      return {
        ...base,
        message: error.message,
        hint: `${look}raise --timeout <seconds>, or use --no-wait / --stream for long tasks`,
      };
    }
    case 'ABORTED': {
      const { taskId } = context;
      const hint = taskId
        ? `the task goes on: \`a2a subscribe ${where} ${taskId}\` follows it, \`a2a cancel ${where} ${taskId}\` stops it`
        : undefined;
      return { ...base, exitCode: EXIT.INTERRUPTED, message: 'interrupted', hint };
    }
    case 'BAD_STATUS':
    case 'BAD_RESPONSE':
    case 'STREAM_CLOSED':
      return { ...base, message: error.message };
  }
}

function isNotAnAgent(error: TransportError): boolean {
  return (
    error.code === 'BAD_RESPONSE' ||
    (error.code === 'BAD_STATUS' && (error.status === 404 || error.status === 410)) ||
    /not an A2A agent/.test(error.message)
  );
}

function notFound(error: TransportError): string {
  const where =
    error.url?.endsWith(WELL_KNOWN_CARD_PATH) !== false ? WELL_KNOWN_CARD_PATH : error.url;
  return `no Agent Card at ${where} (HTTP ${error.status ?? 404})`;
}

/** The library message without its own "not an A2A agent: " prefix. */
function reason(error: TransportError): string {
  return error.message.replace(/^not an A2A agent: /, '');
}

function authError(error: TransportError, context: ErrorContext): Report {
  const denied = error.status === 403;
  const schemes = context.card ? describeSecuritySchemes(context.card) : [];
  const declares = context.card
    ? schemes.length > 0
      ? `the card declares: ${schemes.join('; ')}`
      : 'the card declares no security scheme'
    : 'the Agent Card itself is protected';
  const message = denied
    ? `permission denied (HTTP 403): these credentials are not allowed (${declares})`
    : `authentication required: pass --token or --api-key (${declares})`;
  return { exitCode: EXIT.AUTH, code: denied ? 'PERMISSION_DENIED' : 'UNAUTHENTICATED', message };
}
