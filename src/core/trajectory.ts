/**
 * The trajectory extension (docs/extensions/trajectory.md): the steps an agent took (tool calls
 * with their input, output and timing), carried in the metadata of message and artifact parts
 * under {@link TRAJECTORY_EXTENSION}, as an array of {@link TrajectoryStep}. Field names follow
 * ACP's trajectory metadata (`tool_name`, `tool_input`, `tool_output`). Clients that do not
 * activate the extension (A2A-Extensions, spec §4.6) never see it: the server strips it from every
 * answer with {@link withoutTrajectory}. Pure data functions: stores' objects are never changed.
 */
import type {
  AgentExtension,
  Artifact,
  Message,
  Part,
  StreamResponse,
  Task,
} from './schemas/index.js';
import { withFields } from './with-fields.js';

/** The extension URI, also the metadata key on parts. */
export const TRAJECTORY_EXTENSION = 'urn:a2a-kit:extension:trajectory:v1';

/** The card declaration; put it in your card's `capabilities.extensions` to offer the steps. */
export const trajectoryExtension: AgentExtension = {
  uri: TRAJECTORY_EXTENSION,
  description:
    'Steps (tool calls) the agent took, in part metadata: [{ kind: "trajectory", tool_name, tool_input, tool_output, started_at, duration_ms }].',
  required: false,
};

/** One recorded step as it travels (ACP trajectory field names, snake_case). */
export interface TrajectoryStep {
  readonly kind: 'trajectory';
  /** What the step did, in words (ACP `message`). */
  readonly message?: string | undefined;
  readonly tool_name: string;
  readonly tool_input?: unknown;
  readonly tool_output?: unknown;
  /** RFC 3339 UTC time the step started. */
  readonly started_at?: string | undefined;
  readonly duration_ms?: number | undefined;
}

/** A step as `task.step()` takes it. */
export interface StepInput {
  /** The tool (or sub-agent) that ran. */
  readonly tool: string;
  readonly input?: unknown;
  readonly output?: unknown;
  /** When it started: a Date, epoch milliseconds or an RFC 3339 string. */
  readonly startedAt?: Date | number | string | undefined;
  readonly durationMs?: number | undefined;
  /** What the step did, in words. */
  readonly message?: string | undefined;
}

/** The wire form of a step. */
export function trajectoryStep(step: StepInput): TrajectoryStep {
  const { startedAt } = step;
  const started =
    startedAt === undefined
      ? undefined
      : typeof startedAt === 'string'
        ? startedAt
        : new Date(startedAt).toISOString();
  return {
    kind: 'trajectory',
    ...(step.message === undefined ? {} : { message: step.message }),
    tool_name: step.tool,
    ...(step.input === undefined ? {} : { tool_input: step.input }),
    ...(step.output === undefined ? {} : { tool_output: step.output }),
    ...(started === undefined ? {} : { started_at: started }),
    ...(step.durationMs === undefined ? {} : { duration_ms: step.durationMs }),
  };
}

/** The steps a part carries (empty when none). */
export function partSteps(part: Part): TrajectoryStep[] {
  const steps = part.metadata?.[TRAJECTORY_EXTENSION];
  return Array.isArray(steps) ? (steps as TrajectoryStep[]) : [];
}

function stripParts(parts: readonly Part[]): Part[] | undefined {
  let out: Part[] | undefined;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as Part;
    const metadata = part.metadata;
    if (metadata === undefined || !(TRAJECTORY_EXTENSION in metadata)) continue;
    out ??= parts.slice();
    const { [TRAJECTORY_EXTENSION]: _steps, ...rest } = metadata;
    const { metadata: _old, ...bare } = part;
    out[i] = Object.keys(rest).length > 0 ? withFields(bare, { metadata: rest }) : bare;
  }
  return out;
}

function stripMessage(message: Message): Message {
  const parts = stripParts(message.parts);
  return parts ? { ...message, parts } : message;
}

function stripArtifact(artifact: Artifact): Artifact {
  const parts = stripParts(artifact.parts);
  return parts ? { ...artifact, parts } : artifact;
}

function stripTask(task: Task): Task {
  let out: Task | undefined;
  const statusMessage = task.status.message;
  if (statusMessage) {
    const stripped = stripMessage(statusMessage);
    if (stripped !== statusMessage)
      out = { ...task, status: { ...task.status, message: stripped } };
  }
  // Plain loops: every reply and every streamed task goes through here (no closures per call).
  const given = task.history;
  if (given) {
    let history: Message[] | undefined;
    for (let i = 0; i < given.length; i++) {
      const m = given[i] as Message;
      const stripped = stripMessage(m);
      if (stripped !== m) (history ??= given.slice())[i] = stripped;
    }
    if (history) out = { ...(out ?? task), history };
  }
  const made = task.artifacts;
  if (made) {
    let artifacts: Artifact[] | undefined;
    for (let i = 0; i < made.length; i++) {
      const a = made[i] as Artifact;
      const stripped = stripArtifact(a);
      if (stripped !== a) (artifacts ??= made.slice())[i] = stripped;
    }
    if (artifacts) out = { ...(out ?? task), artifacts };
  }
  return out ?? task;
}

/**
 * The value without trajectory steps, for a caller that did not activate the extension: a Task,
 * a Message or a StreamResponse (or a SendMessageResponse / ListTasksResponse, which have the same
 * members). Returns the value itself when it carries none; copies only what changes.
 */
export function withoutTrajectory<T extends object>(value: T): T {
  const v = value as Partial<StreamResponse> & { tasks?: Task[] };
  if ('task' in v && v.task) {
    const task = stripTask(v.task);
    return task === v.task ? value : { ...value, task };
  }
  if ('message' in v && v.message) {
    const message = stripMessage(v.message);
    return message === v.message ? value : { ...value, message };
  }
  if ('statusUpdate' in v && v.statusUpdate) {
    const { statusUpdate } = v;
    const message = statusUpdate.status.message;
    const stripped = message && stripMessage(message);
    if (stripped === message) return value;
    return {
      ...value,
      statusUpdate: { ...statusUpdate, status: { ...statusUpdate.status, message: stripped } },
    };
  }
  if ('artifactUpdate' in v && v.artifactUpdate) {
    const { artifactUpdate } = v;
    const artifact = stripArtifact(artifactUpdate.artifact);
    return artifact === artifactUpdate.artifact
      ? value
      : { ...value, artifactUpdate: { ...artifactUpdate, artifact } };
  }
  if (Array.isArray(v.tasks)) {
    let tasks: Task[] | undefined;
    v.tasks.forEach((t, i) => {
      const stripped = stripTask(t);
      if (stripped !== t) (tasks ??= v.tasks!.slice())[i] = stripped;
    });
    return tasks ? { ...value, tasks } : value;
  }
  if ('id' in v && 'status' in v) return stripTask(value as unknown as Task) as unknown as T;
  if ('parts' in v && 'role' in v) return stripMessage(value as unknown as Message) as unknown as T;
  return value;
}

/** Serialized JSON (a push body) without trajectory steps; the text itself when it has none. */
export function bodyWithoutTrajectory(body: string): string {
  if (!body.includes(TRAJECTORY_EXTENSION)) return body;
  const value = JSON.parse(body) as object;
  const stripped = withoutTrajectory(value);
  return stripped === value ? body : JSON.stringify(stripped);
}
