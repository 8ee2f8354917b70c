/**
 * The modes of `a2a serve` beyond the demo agent (named as the official Go CLI names them):
 * `--exec 'cmd'` (any command as an agent, see exec-agent.ts), `--echo` (answers with the text
 * it gets), and `--proxy URL` (a gateway in front of another agent: every operation forwarded,
 * each call logged on stderr unless `--quiet`; see client/proxy.ts), and `--mcp 'cmd args'`
 * (an MCP server, by command line or URL, as an agent: its tools are the skills; src/mcp).
 * `--store` and `--bus` hold for every mode that runs an agent; a gateway keeps no tasks (its
 * upstream does), so `--proxy` refuses `--bus`.
 */
import { createA2AHandler } from '../../bindings/a2a-handler.js';
import { proxyService } from '../../client/proxy.js';
import { textOf } from '../../core/parts.js';
import { serve } from '../../node/index.js';
import { openStore, storeSettingsFromEnv, type StoreSettings } from '../../node/open-store.js';
import { serveHandler } from '../../node/serve-handler.js';
import { createAgent, type Agent, type AgentCardConfig } from '../../server/agent.js';
import { loadJson } from '../card-source.js';
import type { CommandContext } from '../command.js';
import { connect } from '../connect.js';
import { CliError, EXIT, UsageError, type ExitCode } from '../exit-codes.js';
import { booleanFlag, stringFlag } from '../options.js';
import { execAgent } from './exec-agent.js';
import type { Logger } from '../../core/logger.js';
import { requestLog } from '../../server/request-log.js';

export type ServeMode = 'exec' | 'echo' | 'proxy' | 'mcp';

/** The mode a `serve` command line asks for, or undefined for the demo agent. */
export function serveMode(values: CommandContext['values']): ServeMode | undefined {
  const asked = (['exec', 'echo', 'proxy', 'mcp'] as const).filter((m) =>
    m === 'echo' ? booleanFlag(values, m) : stringFlag(values, m) !== undefined,
  );
  if (asked.length > 1) {
    throw new UsageError(`--${asked.join(' and --')} cannot be combined`, 'pick one mode');
  }
  return asked[0];
}

/** The store settings with `--bus` in place of `A2A_BUS` when given. */
export function busSettings(settings: StoreSettings, bus: string | undefined): StoreSettings {
  return bus ? { ...settings, bus } : settings;
}

/** Where `a2a serve <mode>` listens and keeps its tasks. */
export interface ModeListen {
  port: number;
  host: string | undefined;
  store: string;
  /** `--bus` as given (else `A2A_BUS` holds). */
  bus?: string | undefined;
  log?: Logger | undefined;
}

/** Runs `mode` until Ctrl+C. */
export async function runMode(
  mode: ServeMode,
  ctx: CommandContext,
  listen: ModeListen,
): Promise<ExitCode> {
  const { values, out, signal } = ctx;
  const quiet = booleanFlag(values, 'quiet');
  if (mode === 'proxy' && listen.bus) {
    throw new UsageError(
      '--bus does not apply to --proxy: a gateway keeps no tasks, its upstream agent does',
      'leave out --bus (give the upstream agent its bus)',
    );
  }
  const storeSettings = busSettings(storeSettingsFromEnv(ctx.io.env), listen.bus);
  let running: { url: string; close(): Promise<void> };
  let what: string;
  let storage: string | undefined;
  try {
    if (mode === 'proxy') {
      const upstream = stringFlag(values, 'proxy') as string;
      const client = await connect(upstream, ctx.global, ctx.errors, signal);
      const service = proxyService(client, {
        onCall: quiet
          ? undefined
          : (call) =>
              ctx.io.stderr.write(
                `${call.operation} ${Math.round(call.durationMs)} ms` +
                  `${call.events !== undefined ? `, ${call.events} events` : ''}` +
                  `${call.error !== undefined ? `, ${call.error}` : ''}\n`,
              ),
      });
      const middleware = listen.log ? [requestLog(listen.log)] : [];
      running = await serveHandler(createA2AHandler(service, { middleware }), listen);
      what = `a gateway to ${client.card.name} at ${upstream}`;
    } else if (mode === 'mcp') {
      const target = stringFlag(values, 'mcp') as string;
      const mcp = await import('../../mcp/index.js');
      const agent = await mcp.mcpAgent({
        client: await mcp.connectMcpServer(target),
        card: mcpCardFields(values),
      });
      const { log } = listen;
      try {
        const opened = await openStore(listen.store, storeSettings);
        storage = opened.description;
        const served = await serve(agent, {
          port: listen.port,
          host: listen.host ?? '127.0.0.1',
          logger: null,
          ...opened.serverOptions,
          ...(log ? { log, middleware: [requestLog(log)] } : {}),
        }).catch(async (error: unknown) => {
          await opened.close();
          throw error;
        });
        running = { url: served.url, close: () => served.close().finally(() => agent.close()) };
      } catch (error) {
        await agent.close();
        throw error;
      }
      what = `the MCP server "${target}" (${agent.tools.length} tools as skills) as the agent ${agent.card.name}`;
    } else {
      const card = await cardOf(ctx, mode);
      const agent: Agent =
        mode === 'exec'
          ? execAgent({
              card,
              command: stringFlag(values, 'exec') as string,
              chunk: chunkOf(stringFlag(values, 'chunk')),
            })
          : echoAgent(card);
      const opened = await openStore(listen.store, storeSettings);
      storage = opened.description;
      const { log } = listen;
      running = await serve(agent, {
        port: listen.port,
        host: listen.host ?? '127.0.0.1',
        logger: null,
        ...opened.serverOptions,
        ...(log ? { log, middleware: [requestLog(log)] } : {}),
      }).catch(async (error: unknown) => {
        await opened.close();
        throw error;
      });
      what =
        mode === 'exec'
          ? `"${stringFlag(values, 'exec') as string}" as the agent ${card.name}`
          : `an echo agent (${card.name})`;
    }
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EADDRINUSE') {
      throw new CliError(
        EXIT.USAGE,
        `port ${listen.port} is in use: pick another with --port N or PORT=N (0 = any free port)`,
        '',
      );
    }
    throw error;
  }
  const { url } = running;
  if (out.json) {
    const tasks = storage !== undefined ? { storage } : {};
    out.jsonLine({ url, card: `${url}/.well-known/agent-card.json`, mode, ...tasks });
  } else {
    out.line(`${out.style.bold('a2a serve')} is serving ${what} on ${out.style.bold(url)}`);
    out.line(`  Agent Card  ${url}/.well-known/agent-card.json`);
    out.line(`  JSON-RPC    ${url}/a2a/jsonrpc`);
    out.line(`  HTTP+JSON   ${url}/a2a/rest`);
    if (storage !== undefined) out.line(`  Tasks       ${storage}`);
    out.line(out.style.dim('Press Ctrl+C to stop.'));
  }
  await new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await running.close();
  if (!out.json) out.line('stopped.');
  return EXIT.OK;
}

/** `--card FILE|URL`, else a card from `--name` and `--description`. */
async function cardOf(ctx: CommandContext, mode: 'exec' | 'echo'): Promise<AgentCardConfig> {
  const source = stringFlag(ctx.values, 'card');
  if (source !== undefined) {
    const { json } = await loadJson(source, ctx.global, ctx.errors, ctx.signal);
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      throw new UsageError(`${source} is not an Agent Card (a JSON object)`);
    }
    // Our interfaces replace whatever the file lists; the rest is served as given.
    const {
      supportedInterfaces: _ignored,
      signatures: _unsigned,
      ...card
    } = json as Record<string, unknown>;
    return card as unknown as AgentCardConfig;
  }
  const name = stringFlag(ctx.values, 'name') ?? (mode === 'exec' ? 'Command' : 'Echo');
  const command = stringFlag(ctx.values, 'exec');
  return {
    name,
    description:
      stringFlag(ctx.values, 'description') ??
      (mode === 'exec' ? `Runs \`${command ?? ''}\` for each message` : 'Repeats what you say'),
    version: '1.0.0',
    capabilities: { streaming: true },
    skills: [
      {
        id: mode,
        name,
        description: mode === 'exec' ? 'Message text on stdin, stdout back' : 'Echoes your text',
        tags: [mode],
      },
    ],
  };
}

/** `--name` / `--description` over the card generated from the MCP server. */
function mcpCardFields(values: CommandContext['values']): Partial<AgentCardConfig> {
  const fields: Partial<AgentCardConfig> = {};
  const name = stringFlag(values, 'name');
  const description = stringFlag(values, 'description');
  if (name !== undefined) fields.name = name;
  if (description !== undefined) fields.description = description;
  return fields;
}

/** `--chunk` as typed: escapes `\n`, `\t` written literally are the characters. */
function chunkOf(raw: string | undefined): string | undefined {
  return raw?.replace(/\\n/g, '\n').replace(/\\t/g, '\t');
}

function echoAgent(card: AgentCardConfig): Agent {
  return createAgent({
    card,
    async *execute({ message, task }) {
      yield task.artifact(textOf(message));
      yield task.completed();
    },
  });
}
