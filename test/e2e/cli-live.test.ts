/** The live display on a terminal, `a2a serve`, and the `a2a demo` walkthrough. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ServeResult } from '../../src/node/index.js';
import { createAgent } from '../../src/server/index.js';
import { cli, closedPort, jsonLines, startDemoAgent } from './harness.js';
import { screen } from './terminal.js';

let agent: ServeResult;
let url: string;

beforeAll(async () => {
  agent = await startDemoAgent();
  url = agent.url;
});
afterAll(() => agent.close());

describe('live display on a terminal', () => {
  it('shows state changes, streams the artifact text as it grows and ends with the state', async () => {
    const { code, stdout } = await cli(['send', '--stream', url, 'story', '4'], { tty: 60 });
    expect(code).toBe(0);
    expect(stdout).toContain('\x1b[2K'); // the spinner line is redrawn in place
    const shown = screen(stdout);
    expect(shown[0]).toMatch(/^▶ task \S+ \(context \S+\)$/);
    expect(shown.slice(1, 4)).toEqual([
      '  ● SUBMITTED',
      '  ● WORKING  agent: Telling a story in 4 chunks.',
      expect.stringMatching(/^ {2}▸ story \(story-\S+\)$/),
    ]);
    const text = shown.filter((l) => l.startsWith('    ')).map((l) => l.trim());
    expect(text.every((l) => l.length <= 55)).toBe(true); // wrapped to the terminal
    expect(text.join(' ')).toBe(
      'Once upon a time, two agents met on a network. Neither knew what the other could do. ' +
        'So the first one fetched the agent card of the second. It read the skills, the input ' +
        'modes and the interfaces.',
    );
    expect(shown).toContain('  ● COMPLETED');
    expect(shown.find((l) => l.startsWith('✔'))).toMatch(/^✔ COMPLETED · 4 chunks · \d+\.\ds$/);
  });

  it('keeps progress messages of one state on the spinner line, not as new lines', async () => {
    const started = await cli(['send', url, '--no-wait', 'slow', '2', '-o', 'json']);
    const { task } = JSON.parse(started.stdout) as { task: { id: string } };
    const frames: string[] = [];
    const { code, stdout } = await cli(['subscribe', url, task.id], {
      tty: 80,
      onStdout: (soFar) => frames.push(screen(soFar).at(-1) ?? ''),
    });
    expect(code).toBe(0);
    expect(frames.some((f) => /WORKING · agent: Working\.\.\. 1\/2 s/.test(f))).toBe(true);
    const shown = screen(stdout);
    expect(shown.filter((l) => l.includes('Working...'))).toEqual([]);
    expect(shown.at(-1)).toMatch(/^→ follow up in the same conversation/);
  });
});

describe('Ctrl+C', () => {
  it('stops following a stream with exit 130 and says the task goes on', async () => {
    const stop = new AbortController();
    const { code, stdout, stderr } = await cli(['send', '--stream', url, 'slow', '30'], {
      signal: stop.signal,
      onStdout: (soFar) => {
        if (soFar.includes('status WORKING')) stop.abort();
      },
    });
    expect(code).toBe(130);
    const id = /^task (\S+)/.exec(stdout)?.[1] ?? '';
    expect(stderr).toContain('error: interrupted');
    expect(stderr).toContain(`the task goes on: \`a2a subscribe ${url} ${id}\` follows it`);
    expect((await cli(['cancel', url, id])).code).toBe(0);
  });
});

describe('Ctrl+C on a terminal', () => {
  it('claims no final state: no success mark before "interrupted"', async () => {
    const stop = new AbortController();
    const { code, stdout, stderr } = await cli(['send', '--stream', url, 'slow', '30'], {
      tty: 80,
      signal: stop.signal,
      onStdout: (soFar) => {
        if (soFar.includes('WORKING')) stop.abort();
      },
    });
    expect(code).toBe(130);
    expect(stderr).toContain('error: interrupted');
    const shown = screen(stdout);
    expect(shown.some((l) => l.startsWith('▶ task'))).toBe(true);
    expect(shown.filter((l) => l.includes('✔') || l.includes('✘'))).toEqual([]);
    const id = /^▶ task (\S+)/.exec(shown.find((l) => l.startsWith('▶ task')) ?? '')?.[1] ?? '';
    expect((await cli(['cancel', url, id])).code).toBe(0);
  });

  it('claims no final state on a pipe either', async () => {
    const stop = new AbortController();
    const { code, stdout } = await cli(['subscribe', url, await started('slow 30')], {
      signal: stop.signal,
      onStdout: (soFar) => {
        if (soFar.includes('WORKING')) stop.abort();
      },
    });
    expect(code).toBe(130);
    expect(stdout).not.toContain('final state');
  });
});

describe('a blocking send on a terminal', () => {
  it('shows a spinner with the elapsed time on stderr while it waits, then erases it', async () => {
    const { code, stdout, stderr } = await cli(['send', url, 'slow', '1'], { stderrTty: 80 });
    expect(code).toBe(0);
    // eslint-disable-next-line no-control-regex -- colors off, to read the text
    const plain = stderr.replace(/\x1b\[\d+m/g, '');
    expect(plain).toMatch(/⠋ 0\.0s waiting for the task to finish or ask for input/);
    expect(stderr.endsWith('\r\x1b[2K')).toBe(true); // the line is cleared before the answer
    expect(screen(stderr)).toEqual([]);
    expect(stdout).toMatch(/^State\s+COMPLETED/m);
    expect(stdout).not.toContain('\x1b');
  });

  it('shows nothing when stderr is not a terminal', async () => {
    const { code, stderr } = await cli(['send', url, 'echo', 'quiet']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });
});

/** Starts `text` on the demo agent without waiting; its task id. */
async function started(text: string): Promise<string> {
  const { stdout } = await cli(['send', url, '--no-wait', ...text.split(' '), '-o', 'json']);
  return (JSON.parse(stdout) as { task: { id: string } }).task.id;
}

describe('a2a serve', () => {
  it('serves the demo agent until stopped', async () => {
    const stop = new AbortController();
    let listening: (url: string) => void = () => undefined;
    const ready = new Promise<string>((resolve) => (listening = resolve));
    const running = cli(['serve', '--port', '0'], {
      signal: stop.signal,
      onStdout: (soFar) => {
        const found = /listening on (http:\/\/\S+)/.exec(soFar)?.[1];
        if (found) listening(found);
      },
    });
    const served = await ready;
    const echo = await cli(['send', served, 'echo', 'served']);
    expect(echo.stdout).toContain('You said: served');
    stop.abort();
    const { code, stdout } = await running;
    expect(code).toBe(0);
    expect(stdout).toContain(`a2a send --stream ${served} story 5`);
    expect(stdout.trim().endsWith('stopped.')).toBe(true);
  });
});

describe('a2a demo', () => {
  it('walks the whole lifecycle against an agent it starts itself', async () => {
    const { code, stdout, stderr } = await cli(['demo']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    for (let step = 1; step <= 9; step++) expect(stdout).toContain(`Step ${step}/9`);
    expect(stdout).toMatch(/← status INPUT_REQUIRED · agent: Which date\?/);
    expect(stdout).toContain('← error UNSUPPORTED_OPERATION');
    expect(stdout).toContain('✔ 5 chunks appended into one artifact');
    expect(stdout).toContain('✔ Walkthrough complete: 9 steps passed, 4 tasks created.');
  });

  it('uses a running agent with --url, over the binding asked for, as JSON lines', async () => {
    const { code, stdout } = await cli([
      'demo',
      '--url',
      url,
      '--binding',
      'HTTP+JSON',
      '-o',
      'json',
    ]);
    expect(code).toBe(0);
    const lines = jsonLines(stdout);
    expect(lines[0]).toEqual({ agent: url, started: false });
    expect(lines.filter((l) => 'ok' in l)).toHaveLength(9);
    expect(lines.at(-1)).toMatchObject({ done: true, steps: 9 });
    expect(lines).toContainEqual(
      expect.objectContaining({
        step: 5,
        response: expect.objectContaining({
          error: expect.objectContaining({ code: 'UNSUPPORTED_OPERATION' }),
        }),
      }),
    );
  });

  it('stops with exit 1 at the first step an agent gets wrong', async () => {
    const echo = createAgent({
      card: {
        name: 'Echo only',
        description: 'never asks',
        version: '1',
        capabilities: { streaming: true },
        skills: [{ id: 'e', name: 'E', description: 'e', tags: ['t'] }],
      },
      async *execute({ task }) {
        yield task.working();
        yield task.completed('done');
      },
    });
    const wrong = await serve(echo, { port: 0, logger: null });
    try {
      const { code, stderr } = await cli(['demo', '--url', wrong.url]);
      expect(code).toBe(1);
      expect(stderr).toContain('error: step 3 failed: expected INPUT_REQUIRED, got COMPLETED');
    } finally {
      await wrong.close();
    }
  });

  it('exits 3 when the agent given with --url cannot be reached', async () => {
    const { code, stderr } = await cli(['demo', '--url', `http://127.0.0.1:${await closedPort()}`]);
    expect(code).toBe(3);
    expect(stderr).toContain('is the agent running?');
  });
});
