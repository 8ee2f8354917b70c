/**
 * The container recipe (Dockerfile, documented in docs/deployment.md), linted by its
 * instructions since no Docker engine runs here: pinned bases, a non-root user, the SQLite
 * volume the CLI's store setting points at, a healthcheck on the Agent Card URL that really
 * answers, exec-form commands with flags `a2a serve` knows, and sources that exist.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { serveCommand } from '../../src/cli/commands/serve.js';
import { serve } from '../../src/node/index.js';
import { createAgent } from '../../src/server/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Instruction {
  keyword: string;
  args: string;
  stage: number;
}

/** The instructions of a Dockerfile: continuations joined, comments dropped, stages counted. */
function parse(text: string): Instruction[] {
  const out: Instruction[] = [];
  let stage = -1;
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const full = (pending + line).trim();
    pending = '';
    const [keyword = '', ...rest] = full.split(/\s+/);
    const upper = keyword.toUpperCase();
    if (upper === 'FROM') stage++;
    out.push({ keyword: upper, args: rest.join(' '), stage });
  }
  return out;
}

const dockerfile = parse(readFileSync(join(root, 'Dockerfile'), 'utf8'));
const lastStage = Math.max(...dockerfile.map((i) => i.stage));
const final = dockerfile.filter((i) => i.stage === lastStage);
const one = (keyword: string) => {
  const found = final.filter((i) => i.keyword === keyword);
  expect(found, keyword).toHaveLength(1);
  return found[0] as Instruction;
};
const execForm = (args: string) => JSON.parse(args) as string[];

describe('Dockerfile', () => {
  it('pins every base image to a tag (never latest) and adds nothing from URLs', () => {
    const bases = dockerfile.filter((i) => i.keyword === 'FROM');
    expect(bases.length).toBeGreaterThan(0);
    for (const base of bases)
      expect(base.args).toMatch(/^[\w./-]+:(?!latest\b)[\w.-]+(\s+AS\s+\w+)?$/i);
    expect(dockerfile.filter((i) => i.keyword === 'ADD')).toEqual([]);
    expect(dockerfile.filter((i) => /curl|wget/.test(i.args))).toEqual([]);
  });

  it('installs Debian packages without recommends and drops the lists in the same layer', () => {
    for (const run of dockerfile.filter((i) => i.keyword === 'RUN' && i.args.includes('apt-get'))) {
      expect(run.args).toContain('--no-install-recommends');
      expect(run.args).toContain('rm -rf /var/lib/apt/lists/*');
    }
  });

  it('runs as a non-root user, set after the last step that needs root', () => {
    const index = final.findIndex((i) => i.keyword === 'USER');
    expect(index).toBeGreaterThan(-1);
    expect(final[index]?.args).not.toMatch(/^(root|0)(:|$)/);
    expect(
      final.slice(index + 1).filter((i) => i.keyword === 'RUN' || i.keyword === 'USER'),
    ).toEqual([]);
  });

  it('keeps SQLite on a volume the store setting points at', () => {
    const env = one('ENV').args;
    const store = /A2A_STORE=(\S+)/.exec(env)?.[1];
    expect(store).toBeDefined();
    const volumes = execForm(one('VOLUME').args);
    expect(volumes).toContain(posix.dirname(store as string));
    // `a2a serve` reads the store from $A2A_STORE when --store is not given.
    expect(readFileSync(join(root, 'src/cli/commands/serve.ts'), 'utf8')).toContain('A2A_STORE');
  });

  it('starts `a2a serve` in exec form with flags it knows, on an exposed port', () => {
    const cmd = execForm(one('CMD').args);
    expect(cmd.slice(0, 3)).toEqual(['node', 'dist/src/cli/main.js', 'serve']);
    const flags = cmd.filter((a) => a.startsWith('--')).map((a) => a.slice(2));
    for (const flag of flags) expect(Object.keys(serveCommand.flags ?? {})).toContain(flag);
    const port = cmd[cmd.indexOf('--port') + 1];
    expect(one('EXPOSE').args.split(/\s+/)).toContain(port);
    expect(cmd[cmd.indexOf('--host') + 1]).toBe('0.0.0.0');
  });

  it('copies only what exists here or what the build stage produced', () => {
    const build = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')) as {
      include: string[];
    };
    expect(build.include).toContain('src');
    for (const copy of dockerfile.filter((i) => i.keyword === 'COPY')) {
      const parts = copy.args.split(/\s+/).filter((p) => !p.startsWith('--'));
      const sources = parts.slice(0, -1);
      if (copy.args.includes('--from=')) {
        for (const s of sources)
          expect(s).toMatch(/^\/app\/(package\.json|node_modules|dist\/src|proto)$/);
      } else {
        for (const s of sources) expect(existsSync(join(root, s)), s).toBe(true);
      }
    }
    const ignored = readFileSync(join(root, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['node_modules', '.git', 'dist']) expect(ignored).toContain(entry);
  });

  it('has a healthcheck that passes on a serving agent and fails when nothing answers', async () => {
    const healthcheck = one('HEALTHCHECK').args;
    const cmd = execForm(healthcheck.slice(healthcheck.indexOf('CMD') + 3).trim());
    expect(cmd[0]).toBe('node');
    const script = cmd[2] as string;
    expect(script).toContain('/.well-known/agent-card.json');
    const exposedPort = execForm(one('CMD').args).at(-1) as string;
    expect(script).toContain(`127.0.0.1:${exposedPort}/`);

    const agent = createAgent({
      card: { name: 'Health', description: 'healthcheck target', version: '1.0.0', skills: [] },
      async *execute({ task }) {
        yield task.completed();
      },
    });
    const served = await serve(agent, { port: 0, logger: null });
    const run = promisify(execFile);
    const port = new URL(served.url).port;
    try {
      const ok = await run('node', ['-e', script.replace(`:${exposedPort}/`, `:${port}/`)]);
      expect(ok.stderr).toBe('');
    } finally {
      await served.close();
    }
    // Same port, now closed: the check must fail (exit 1), not hang or pass.
    await expect(
      run('node', ['-e', script.replace(`:${exposedPort}/`, `:${port}/`)]),
    ).rejects.toMatchObject({
      code: 1,
    });
  });
});
