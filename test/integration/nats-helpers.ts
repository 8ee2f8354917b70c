/**
 * NATS fixtures for the integration suites: the shared server from `A2A_TEST_NATS_URL` (the
 * suites are skipped, loudly, without it), a unique subject prefix per use (other runs share that
 * server) whose streams are deleted afterwards, and a private nats-server process for the fault
 * tests that restart, stall or shrink it (never the shared one).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { describe } from 'vitest';

/** The shared NATS of the integration run, or undefined when none is configured. */
export const NATS_URL = process.env['A2A_TEST_NATS_URL'] || undefined;

/** `describe` when NATS is configured; otherwise `describe.skip` plus a warning nobody can miss. */
export function describeNats(name: string, body: () => void): void {
  if (NATS_URL) {
    describe(name, body);
    return;
  }
  console.warn(
    [
      '',
      '!'.repeat(78),
      `!! SKIPPED: ${name}`,
      '!! A2A_TEST_NATS_URL is not set, so the NATS integration tests did NOT run.',
      '!! Set it, e.g. A2A_TEST_NATS_URL=nats://127.0.0.1:4222',
      '!'.repeat(78),
      '',
    ].join('\n'),
  );
  describe.skip(name, body);
}

/** A subject prefix no other run uses: `t<random>`. */
export function freshPrefix(): string {
  return `t${randomBytes(6).toString('hex')}`;
}

/** Deletes the JetStream streams whose names start with `PREFIX_` (test cleanup). */
export async function dropStreams(url: string, prefixes: readonly string[]): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    const names: string[] = [];
    for await (const name of jsm.streams.names()) names.push(name);
    for (const name of names) {
      if (prefixes.some((p) => name.startsWith(`${p.replace(/\./g, '_').toUpperCase()}_`))) {
        await jsm.streams.delete(name);
      }
    }
  } finally {
    await nc.close();
  }
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Options of a private nats-server. */
export interface PrivateNatsOptions {
  /** `max_payload` in bytes (server default 1 MiB). */
  maxPayload?: number;
}

/** A nats-server process of this test alone, with JetStream in a temporary directory. */
export class PrivateNats {
  private child: ChildProcess | undefined;
  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly config: string,
  ) {}

  /** `nats://127.0.0.1:<port>`. */
  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  static async start(options: PrivateNatsOptions = {}): Promise<PrivateNats> {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'a2a-nats-'));
    const config = join(dir, 'nats.conf');
    const lines = [
      `host: 127.0.0.1`,
      `port: ${port}`,
      `jetstream { store_dir: "${join(dir, 'js')}" }`,
      ...(options.maxPayload !== undefined ? [`max_payload: ${options.maxPayload}`] : []),
    ];
    writeFileSync(config, lines.join('\n'));
    const server = new PrivateNats(port, dir, config);
    await server.run();
    return server;
  }

  /** Starts the process and waits until it accepts connections. */
  async run(): Promise<void> {
    const child = spawn('/usr/sbin/nats-server', ['-c', this.config], { stdio: 'ignore' });
    this.child = child;
    for (let i = 0; i < 200; i++) {
      try {
        const nc = await connect({ servers: this.url, reconnect: false });
        await nc.close();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    throw new Error(`nats-server on ${this.port} did not start`);
  }

  /** Kills the process (SIGKILL) and waits for it to exit. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  /** Stops the process and removes its directory. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
