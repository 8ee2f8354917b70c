/**
 * `a2a serve --exec 'cmd'`: any command as an A2A agent. Each message's text goes to the
 * command's stdin; its stdout comes back as one artifact streamed in chunks (split at
 * `chunk`, a newline by default) as soon as they are written; exit code 0 completes the task,
 * any other fails it with the end of stderr as the status message. Canceling the task (spec
 * §3.1.5) or a client that goes away stops the command (SIGTERM, then SIGKILL after 2 s).
 */
import { spawn } from 'node:child_process';
import { textOf } from '../../core/parts.js';
import { createAgent, type Agent, type AgentCardConfig } from '../../server/agent.js';

/** Options of {@link execAgent}. */
export interface ExecAgentOptions {
  /** The card to serve (name, description, skills, …). */
  card: AgentCardConfig;
  /** A shell command line, run with `sh -c` once per message. */
  command: string;
  /** Where stdout is cut into artifact chunks (default `\n`; `''` sends it whole at exit). */
  chunk?: string | undefined;
  /** Working directory of the command (default: the server's). */
  cwd?: string | undefined;
  /** Environment of the command (default: the server's). */
  env?: NodeJS.ProcessEnv | undefined;
}

/** At most this much of stderr is kept for the failure message. */
const STDERR_TAIL = 2_000;
const KILL_AFTER_MS = 2_000;

/** The agent that runs `options.command` for each message. */
export function execAgent(options: ExecAgentOptions): Agent {
  const delimiter = options.chunk ?? '\n';
  return createAgent({
    card: options.card,
    async *execute({ message, task, signal }) {
      const child = spawn('sh', ['-c', options.command], {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (text: string) => {
        stderr = (stderr + text).slice(-STDERR_TAIL);
      });
      const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
        child.once('error', (error) => resolve({ code: null, error }));
        child.once('close', (code) => resolve({ code }));
      });
      const stop = () => {
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS).unref();
      };
      signal.addEventListener('abort', stop, { once: true });
      child.stdin.on('error', () => undefined); // a command that does not read its input
      child.stdin.end(textOf(message));
      try {
        yield task.working();
        const artifactId = `${task.id}-stdout`;
        let sent = 0;
        let pending = '';
        child.stdout.setEncoding('utf8');
        for await (const data of child.stdout as AsyncIterable<string>) {
          pending += data;
          if (delimiter === '') continue;
          let cut = pending.indexOf(delimiter);
          while (cut >= 0) {
            const piece = pending.slice(0, cut + delimiter.length);
            pending = pending.slice(cut + delimiter.length);
            yield task.artifact(piece, { artifactId, name: 'stdout', append: sent++ > 0 });
            cut = pending.indexOf(delimiter);
          }
        }
        const { code, error } = await exited;
        if (signal.aborted) return;
        // The rest of stdout (possibly empty) closes the artifact.
        yield task.artifact(pending, {
          artifactId,
          name: 'stdout',
          append: sent > 0,
          lastChunk: true,
        });
        if (error !== undefined) {
          yield task.failed(`The command could not be started: ${error.message}`);
        } else if (code === 0) {
          yield task.completed();
        } else {
          const detail = stderr.trim() === '' ? '' : `: ${stderr.trim()}`;
          yield task.failed(`The command exited with code ${code ?? 'signal'}${detail}`);
        }
      } finally {
        signal.removeEventListener('abort', stop);
        if (child.exitCode === null && child.signalCode === null) stop();
      }
    },
  });
}
