/**
 * The web inspector in a real browser (Debian's chromium through playwright-core) against the
 * demo agent mounted with `startDemo({ inspector })`: the card (spec §5.5, signature §8.4.3),
 * streaming `story 5` (§3.1.2, chunks in order §4.1.7), `book`'s input-required turn (§4.1.3),
 * cancelling `slow` (§3.1.5), resubscribing after a reload (§3.1.6), ListTasks with filters and
 * pages (§3.1.4), the timeline, the wire view, push with the built-in webhook (§3.1.7, §13.2), a
 * tampered card shown as invalid, a 401 agent asking for its token (§7), gRPC through the
 * inspector's server (§10), and a 10,000-event timeline. With A2A_INSPECTOR_SCREENSHOTS=1 each
 * view is saved under docs/inspector/ (not on ordinary runs).
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { storyChunks } from '../../src/demo/behaviours.js';
import { demoCard } from '../../src/demo/card.js';
import { startDemo, type DemoServer } from '../../src/demo/main.js';
import type { ServeResult } from '../../src/node/index.js';
import {
  buildAssets,
  launchBrowser,
  LOCKED_TOKEN,
  lockedAgent,
  longAgent,
  NO_BROWSER,
  pageActions,
  tamperedCardServer,
  WAIT,
} from './browser.js';

if (NO_BROWSER) console.warn(`\n*** SKIPPING the inspector's browser tests: ${NO_BROWSER} ***\n`);

const SHOTS = process.env.A2A_INSPECTOR_SCREENSHOTS === '1';
const LONG_EVENTS = 10_000;

describe.skipIf(NO_BROWSER !== undefined)('web inspector in chromium', { timeout: 90_000 }, () => {
  let demo: DemoServer;
  let browser: BrowserContext;
  let page: Page;
  let ui: ReturnType<typeof pageActions>;
  let tampered: { url: string; close(): Promise<void> };
  let locked: ServeResult;
  let long: ServeResult;
  let gzipBytes = 0;
  const cspViolations: string[] = [];
  /** Every URL the page asked for: all on loopback (no CDN, works offline). */
  const requested: string[] = [];

  beforeAll(async () => {
    const assets = await buildAssets();
    gzipBytes = assets.gzipBytes;
    demo = await startDemo({
      port: 0,
      grpcPort: 0,
      logger: null,
      agent: { chunkDelayMs: 40, tickMs: 300 },
      inspector: { assetsDir: assets.outDir },
    });
    tampered = await tamperedCardServer();
    locked = await lockedAgent();
    long = await longAgent(LONG_EVENTS);
    browser = await launchBrowser();
    page = await browser.newPage();
    ui = pageActions(page);
    page.on('request', (r) => requested.push(r.url()));
    page.on('console', (m) => {
      if (/content security policy/i.test(m.text())) cspViolations.push(m.text());
    });
    if (SHOTS) mkdirSync('docs/inspector', { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([demo?.close(), tampered?.close(), locked?.close(), long?.close()]);
  });

  afterEach(async (context) => {
    // A failed step leaves a picture of the page behind, for whoever reads the failure.
    if (context.task.result?.state === 'fail') {
      await page?.screenshot({
        path: `${tmpdir()}/inspector-failed-${context.task.name.slice(0, 30).replace(/\W+/g, '-')}.png`,
        fullPage: true,
      });
    }
  });

  const shot = async (name: string) => {
    if (SHOTS) await page.screenshot({ path: `docs/inspector/${name}.png`, fullPage: true });
  };
  const tab = (name: string) => ui.tab(name);
  const connect = (url: string) => ui.connect(url);
  const send = (text: string, stream: boolean) => ui.send(text, stream);
  const newChat = () => ui.newChat();
  const taskId = () => ui.taskId();

  it('serves the page under a strict CSP with no inline script, and opens the demo card (spec §5.5)', async () => {
    const response = await page.goto(`${demo.url}/inspector/`);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(await page.locator('script:not([src])').count()).toBe(0);
    expect(await page.locator('link[href^="http"], script[src^="http"]').count()).toBe(0);
    await page.locator('[data-signature]').waitFor(WAIT);
    expect(await page.locator('[data-valid=true]').count()).toBe(1);
    expect(await page.locator('[data-skill]').count()).toBe(demoCard.skills.length);
    // JSON-RPC, HTTP+JSON, gRPC, then the demo's 0.3 JSON-RPC, HTTP+JSON and gRPC (compat: ['0.3']).
    expect(await page.locator('table.interfaces tbody tr').count()).toBe(6);
    expect(await page.locator('table.interfaces tbody tr').first().textContent()).toContain(
      'JSONRPC',
    );
    await page.click('details summary:has-text("Raw JSON")');
    expect(await page.locator('[data-raw]').textContent()).toContain('"supportedInterfaces"');
    expect(gzipBytes).toBeLessThan(50_000); // the whole bundle, Preact included
  });

  it('renders the card: interfaces in its preference order, capabilities, schemes, extensions (spec §8.3.2)', async () => {
    const served = (await (
      await fetch(`${demo.url}/.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } })
    ).json()) as {
      supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[];
      capabilities: { extensions: { uri: string }[] };
      securitySchemes: Record<string, object>;
    };
    const rows = await page.locator('table.interfaces tbody tr').allTextContents();
    expect(rows).toHaveLength(served.supportedInterfaces.length);
    served.supportedInterfaces.forEach((i, n) => {
      expect(rows[n]).toContain(i.protocolBinding);
      expect(rows[n]).toContain(i.url);
      expect(rows[n]).toContain(i.protocolVersion);
    });
    const chips = await page.locator('ul.chips li').allTextContents();
    expect(chips).toEqual(['streaming yes', 'push yes', 'extended card yes']);
    const body = (await page.locator('.card-body').textContent()) ?? '';
    for (const x of served.capabilities.extensions) expect(body).toContain(x.uri);
    for (const name of Object.keys(served.securitySchemes)) expect(body).toContain(name);
    expect(body).toContain('Security schemes');
    // Everything the page loaded came from the inspector itself.
    expect(requested.length).toBeGreaterThan(3);
    expect(requested.filter((u) => !u.startsWith(`${demo.url}/`))).toEqual([]);
  });

  it('shows the signature as verified with its key id (spec §8.4.3)', async () => {
    const text = (await page.locator('[data-signature=verified]').textContent()) ?? '';
    expect(text).toMatch(/Signature verified with key id "[\w-]+" \(ES256\)/);
    await shot('card');
  });

  it('streams story 5: every chunk arrives, in order, appended in place (spec §4.1.7)', async () => {
    await send('story 5', true);
    await page.locator('[data-state=completed]').waitFor(WAIT);
    const artifact = page.locator('li[data-who=artifact]');
    expect(await artifact.count()).toBe(1); // one artifact line, grown in place
    expect(await artifact.locator('.text').textContent()).toBe(storyChunks(5).join(''));
    await shot('chat-stream');
    await page.click('text=Timeline');
    const rows = page.locator('.tl-row.artifact');
    await rows.nth(4).waitFor(WAIT);
    const texts = await rows.locator('.text').allTextContents();
    expect(texts).toEqual(storyChunks(5));
    const seqs = await rows.evaluateAll((els) =>
      els.map((e) => Number(e.getAttribute('data-seq'))),
    );
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(await page.locator('.tl-row .delta').first().textContent()).toMatch(/^\+\d/);
    // Each event: its sequence number, arrival time, and what it did; chunks marked appended.
    const first = page.locator('.tl-row').first();
    expect(await first.locator('.seq').textContent()).toBe('#1');
    expect(await first.locator('.time').textContent()).toMatch(/^\d\d:\d\d:\d\d\.\d{3}$/);
    const whats = await rows.locator('.what').allTextContents();
    expect(whats[0]).not.toContain('+append');
    expect(whats.slice(1).every((w) => w.includes('+append'))).toBe(true);
    expect(whats.at(-1)).toContain('last');
    await page.locator('.tl-row.status .what:has-text("completed")').waitFor(WAIT);
    await shot('timeline');
  });

  it("answers book's question on the same task: input-required shown as a prompt (spec §4.1.3)", async () => {
    await newChat();
    await send('book', true);
    const prompt = page.locator('li.prompt[data-state=input-required]');
    await prompt.waitFor(WAIT);
    expect(await prompt.textContent()).toContain('Input required: Which date?');
    const first = await taskId();
    await shot('chat-input-required');
    await send('2026-12-24', true);
    await page.locator('[data-state=completed]').waitFor(WAIT);
    expect(await taskId()).toBe(first);
    expect(await page.locator('li[data-who=artifact]').first().textContent()).toContain(
      '2026-12-24',
    );
  });

  it('shows auth-required as a prompt, and a follow-up on the same task completes it (spec §7.6.1)', async () => {
    await newChat();
    await send('auth', true);
    const prompt = page.locator('li.prompt[data-state=auth-required]');
    await prompt.waitFor(WAIT);
    expect(await prompt.textContent()).toContain('Authorization required');
    expect(await prompt.textContent()).toContain('calendar.write');
    const first = await taskId();
    await send('granted', true);
    await page.locator('[data-state=completed]').last().waitFor(WAIT);
    expect(await taskId()).toBe(first);
    await page.locator('li[data-who=artifact]:has-text("Authorized")').waitFor(WAIT);
    // The answer hands out the demo's token: clear the wire log, so the credential tests
    // below see only what the inspector itself sent.
    await tab('Wire');
    await page.click('button:has-text("Clear")');
    await page
      .locator('li[data-wire]')
      .first()
      .waitFor({ state: 'detached', ...WAIT });
  });

  it('sends a data part and a file part (spec §4.1.6)', async () => {
    await newChat();
    await page.click('summary:has-text("Data and file parts")');
    await page.fill('#msg-data', '{"date":"2026-12-31"}');
    await page.setInputFiles('#msg-file', {
      name: 'note.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('file part body'),
    });
    await send('', false);
    // The demo echoes a data part without a command as its JSON.
    await page.locator('li[data-who=artifact]:has-text("2026-12-31")').waitFor(WAIT);
    await tab('Wire');
    const sent = page.locator('li[data-wire]:has-text("note.txt")').first();
    await sent.waitFor(WAIT);
    const body = (await sent.locator('h4:has-text("Request body") + pre').textContent()) ?? '';
    expect(body).toContain('"data":{"date":"2026-12-31"}');
    expect(body).toContain(`"raw":"${Buffer.from('file part body').toString('base64')}"`);
    expect(body).toContain('"mediaType":"text/plain"');
  });

  it('cancels slow while it runs, its timeline growing live (spec §3.1.5)', async () => {
    await newChat();
    // Long enough never to end by itself on a loaded machine: the test cancels it.
    await send('slow 600', true);
    await page.locator('[data-state=working]').first().waitFor(WAIT);
    await page.click('button:has-text("Timeline")');
    await page.locator('.tl-row').nth(1).waitFor(WAIT);
    const seen = Number(await page.locator('[data-count]').getAttribute('data-count'));
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-count]')?.getAttribute('data-count')) > n,
      seen,
      WAIT,
    );
    await tab('Chat');
    await page.click('[data-action=cancel]');
    await page.locator('[data-state=canceled]').first().waitFor(WAIT);
    expect(await page.locator('[data-action=cancel]').count()).toBe(0);
  });

  it('resubscribes to a running task after a reload (spec §3.1.6)', async () => {
    await newChat();
    await send('slow 600', true);
    await page.locator('[data-state=working]').nth(1).waitFor(WAIT);
    const id = await taskId();
    await page.reload();
    await page.locator('[data-task-id]').waitFor(WAIT);
    expect(await taskId()).toBe(id); // kept in the page URL, not in browser storage
    await page.click('text=Resubscribe');
    await page.locator('[data-state=working]').nth(1).waitFor(WAIT);
    await page.click('[data-action=cancel]');
    await page.locator('[data-state=canceled]').first().waitFor(WAIT);
  });

  it('lists tasks with a state filter and pages (spec §3.1.4), then opens a timeline', async () => {
    await tab('Tasks');
    await page.fill('#f-size', '2');
    await page.click('form.filters button[type=submit]');
    await page.locator('[data-total]').waitFor(WAIT);
    expect(
      Number(await page.locator('[data-total]').getAttribute('data-total')),
    ).toBeGreaterThanOrEqual(4);
    const firstPage = await page
      .locator('tr[data-task]')
      .evaluateAll((r) => r.map((e) => e.getAttribute('data-task')));
    expect(firstPage).toHaveLength(2);
    await page.click('text=Next page →');
    await page.waitForFunction((ids) => {
      const now = Array.from(document.querySelectorAll('tr[data-task]')).map((e) =>
        e.getAttribute('data-task'),
      );
      return now.length > 0 && !now.some((id) => ids.includes(id));
    }, firstPage);
    await page.selectOption('#f-status', 'CANCELED');
    await page.click('form.filters button[type=submit]');
    await page.waitForFunction(() => {
      const states = Array.from(document.querySelectorAll('tr[data-task] td:nth-child(2)')).map(
        (e) => e.textContent,
      );
      return states.length > 0 && states.every((s) => s === 'canceled');
    });
    await shot('tasks');
    await page.locator('tr[data-task] button').first().click();
    await page.locator('.tl-row').first().waitFor(WAIT);
    expect(await page.locator('.timeline').textContent()).toContain('canceled');
    // The context filter: only the tasks of that context (here, one).
    const row = page.locator('tr[data-task]').first();
    const id = await row.getAttribute('data-task');
    const context = (await row.locator('td:nth-child(4)').textContent()) ?? '';
    await page.selectOption('#f-status', '');
    await page.fill('#f-context', context);
    await page.click('form.filters button[type=submit]');
    await page.waitForFunction(
      (only) => {
        const ids = Array.from(document.querySelectorAll('tr[data-task]'));
        return ids.length === 1 && ids[0]?.getAttribute('data-task') === only;
      },
      id,
      WAIT,
    );
    // Updated after: a time in the future leaves none.
    await page.fill('#f-context', '');
    await page.fill('#f-after', '2099-01-01T00:00');
    await page.click('form.filters button[type=submit]');
    await page.locator('[data-total="0"]').waitFor(WAIT);
    expect(await page.locator('tr[data-task]').count()).toBe(0);
    await page.fill('#f-after', '');
  });

  it('keeps credentials in the server, masks them on the wire, gets the extended card (spec §3.1.11)', async () => {
    await tab('Auth');
    await page.fill('#demoToken-value', demo.token);
    await page.click('form[data-scheme=demoToken] button[type=submit]');
    await page.locator('[data-configured]').waitFor(WAIT);
    expect(await page.inputValue('#demoToken-value')).toBe('');
    const storage = await page.evaluate(
      () =>
        JSON.stringify({ ...localStorage }) +
        JSON.stringify({ ...sessionStorage }) +
        document.cookie,
    );
    expect(storage).not.toContain(demo.token);
    await shot('auth');
    await tab('Card');
    await page.click('text=Get extended card');
    await page.locator('[data-extended]').waitFor(WAIT);
    expect(await page.locator('[data-extended]').textContent()).toContain('whoami');
    await tab('Wire');
    const entry = page.locator('li[data-wire]').first();
    await entry.waitFor(WAIT);
    await entry.locator('summary').click();
    const text = (await entry.textContent()) ?? '';
    expect(text).toContain('authorization: Bearer •••');
    expect(await page.locator('.wire').textContent()).not.toContain(demo.token);
    expect(await entry.locator('pre.curl').textContent()).toMatch(/^curl -sS -X POST '/);
  });

  it('shows SSE frames as they arrived in the wire view', async () => {
    await send('story 3', true);
    await page.locator('[data-state=completed]').last().waitFor(WAIT);
    await tab('Wire');
    const streamed = page.locator('li[data-wire]:has-text("SSE frame")').first();
    await streamed.waitFor(WAIT);
    await streamed.locator('summary').click();
    expect(await streamed.locator('ol.frames li').count()).toBeGreaterThanOrEqual(5);
    // The response headers too, as the agent sent them.
    expect(await streamed.textContent()).toContain('content-type: text/event-stream');
    await shot('wire');
    await browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: demo.url });
    await streamed.locator('button:has-text("Copy as curl")').click();
    await streamed.locator('button:has-text("Copied")').waitFor(WAIT);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await streamed.locator('pre.curl').textContent());
    expect(copied).toMatch(/^curl -sS -X POST '.*' -H 'accept: text\/event-stream/);
    expect(copied).toContain("-H 'authorization: Bearer •••'");
  });

  it('registers the built-in webhook and shows verified deliveries; a forged one is refused (spec §13.2)', async () => {
    await newChat();
    await send('book', true);
    await page.locator('li.prompt').waitFor(WAIT);
    const id = await taskId();
    await tab('Push');
    await page.fill('#push-task', id);
    await page.click('form.filters button[type=submit]');
    await page.locator('[data-hook]').waitFor(WAIT);
    const hookUrl = (await page.locator('[data-hook] code').textContent()) ?? '';
    await send('2026-12-24', true);
    await page.locator('[data-state=completed]').last().waitFor(WAIT);
    await tab('Push');
    const verified = page.locator('tr[data-delivery=accepted][data-signature=verified]');
    await verified.first().waitFor(WAIT);
    expect(await verified.first().locator('td:nth-child(5)').textContent()).not.toBe(''); // key id
    expect(await verified.first().locator('td:nth-child(6)').textContent()).toBe('fresh');
    const forged = await fetch(hookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-a2a-notification-signature': 'e30.e30.e30',
      },
      body: JSON.stringify({
        statusUpdate: { taskId: id, contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } },
      }),
    });
    expect(forged.status).toBe(401);
    await page.locator('tr[data-delivery=refused]').first().waitFor(WAIT);
    expect(await page.locator('tr[data-delivery=refused]').first().textContent()).toMatch(
      /BAD_SIGNATURE|BAD_TOKEN/,
    );
    await shot('push');
  });

  it('shows a card whose signed content was changed as invalid (spec §8.4.3)', async () => {
    await connect(tampered.url);
    const bad = page.locator('[data-signature=invalid]');
    await bad.waitFor(WAIT);
    expect(await bad.textContent()).toContain('BAD_SIGNATURE');
    // The warnings are those of `a2a card validate`, the same code.
    let out = '';
    const io = {
      stdout: { write: (t: string) => ((out += t), true) },
      stderr: { write: () => true },
      env: {},
    };
    expect(await run(['card', 'validate', tampered.url, '-o', 'json'], io)).toBe(0);
    const { warnings } = JSON.parse(out) as { warnings: string[] };
    expect(warnings.length).toBeGreaterThan(0);
    expect(await page.locator('ul.warnings li').allTextContents()).toEqual(
      warnings.map((w) => `! ${w}`),
    );
    await shot('card-invalid-signature');
  });

  it('asks a 401 agent for its token from the card, then succeeds with it (spec §7)', async () => {
    await connect(locked.url);
    const unsigned = page.locator('[data-signature=unsigned]');
    expect(await unsigned.count()).toBe(1);
    await send('hi', false);
    await page.locator('[data-auth-reason]').waitFor(WAIT);
    expect(await page.locator('form[data-scheme=bearer]').textContent()).toContain('required');
    await shot('auth-401');
    await page.fill('#bearer-value', LOCKED_TOKEN);
    await page.click('form[data-scheme=bearer] button[type=submit]');
    await page.locator('[data-configured]').waitFor(WAIT);
    await send('hi', false);
    await page.locator('li[data-who=artifact]:has-text("locked echo: hi")').waitFor(WAIT);
  });

  it("speaks gRPC through the inspector's server side (spec §10)", async () => {
    await connect(demo.url);
    await page.selectOption('#binding', 'GRPC');
    await newChat();
    await send('echo over grpc', false);
    await page.locator('li[data-who=artifact]:has-text("over grpc")').waitFor(WAIT);
    await send('echo streamed over grpc', true);
    await page.locator('li[data-who=artifact]:has-text("streamed over grpc")').waitFor(WAIT);
    await tab('Wire');
    await page.locator('li[data-wire]:has-text("GRPC")').first().waitFor(WAIT);
    const grpcurl = page.locator('li[data-wire] pre.curl:has-text("A2AService/SendMessage")');
    expect(await grpcurl.first().textContent()).toMatch(/^grpcurl -plaintext -d '/);
  });

  it('speaks HTTP+JSON at 1.0 when picked (spec §11)', async () => {
    await connect(demo.url);
    await page.selectOption('#binding', 'HTTP+JSON');
    await newChat();
    await send('echo over rest', true);
    await page.locator('li[data-who=artifact]:has-text("over rest")').waitFor(WAIT);
    await tab('Wire');
    await page.locator('li[data-wire]:has-text("/message:stream")').first().waitFor(WAIT);
    await page.selectOption('#binding', 'JSONRPC');
  });

  it('keeps a 10,000-event timeline virtualised: few rows in the DOM, the last reachable', async () => {
    // The page draws the chunks once per frame, so 10,000 events stream in seconds; on a busy
    // 2-core machine its main thread still answers late, so each wait here is on a condition
    // with room to spare (never a fixed sleep).
    page.setDefaultTimeout(120_000);
    try {
      await connect(long.url);
      await newChat();
      await send('go', true);
      await page.locator('[data-state=completed]').last().waitFor({ timeout: 240_000 });
      expect(await page.locator('li[data-who=artifact]').textContent()).toContain(
        `c${LONG_EVENTS - 1}`,
      );
      await page.click('text=Timeline');
      // The timeline may still be taking in the last events when the chat shows COMPLETED: wait
      // for all of them (the task, WORKING, 10,000 chunks, COMPLETED), then check none is extra.
      await page.waitForFunction(
        (n) => Number(document.querySelector('[data-count]')?.getAttribute('data-count')) >= n,
        LONG_EVENTS + 3,
        { timeout: 120_000 },
      );
      const count = Number(await page.locator('[data-count]').getAttribute('data-count'));
      expect(count).toBe(LONG_EVENTS + 3); // the task, WORKING, 10,000 chunks, COMPLETED
      expect(await page.locator('.tl-row').count()).toBeLessThan(60);
      await page.locator('.tl-box').evaluate((box) => (box.scrollTop = box.scrollHeight));
      await page.locator(`.tl-row[data-seq="${count}"]`).waitFor();
      expect(await page.locator('.tl-row').count()).toBeLessThan(60);
      expect(await page.locator('.artifacts [data-artifact=long]').textContent()).toContain(
        `c${LONG_EVENTS - 1}`,
      );
    } finally {
      page.setDefaultTimeout(30_000);
    }
  }, 400_000);

  it('is keyboard accessible and readable on a narrow window', async () => {
    await page.setViewportSize({ width: 1200, height: 900 });
    await connect(demo.url);
    await page.focus('#tab-Card');
    await page.keyboard.press('ArrowRight');
    expect(await page.getAttribute('#tab-Chat', 'aria-selected')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab-Chat');
    // Ctrl+Enter in the message box sends it, no mouse needed.
    await newChat();
    await page.focus('#msg-text');
    await page.keyboard.type('echo by keyboard');
    await page.keyboard.press('Control+Enter');
    await page.locator('li[data-who=artifact]:has-text("You said: by keyboard")').waitFor(WAIT);
    // Tab walks the controls in order, and the keyboard focus is drawn.
    await page.focus('#agent-url');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const e = document.activeElement as HTMLElement;
      const style = getComputedStyle(e);
      return { tag: e.tagName, text: e.textContent, outline: style.outlineStyle };
    });
    expect(focused).toMatchObject({ tag: 'BUTTON', text: 'Connect' });
    expect(focused.outline).not.toBe('none');
    await page.setViewportSize({ width: 360, height: 800 });
    // No view is wider than the window (long URLs, JSON and curl lines wrap or scroll inside).
    for (const name of ['Card', 'Chat', 'Tasks', 'Wire', 'Push', 'Auth']) {
      await tab(name);
      await page.locator(`#view-${name}`).waitFor(WAIT);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `the ${name} view is ${width} px wide in a 360 px window`).toBeLessThanOrEqual(
        362,
      );
      if (name === 'Card') await shot('narrow');
    }
    expect(cspViolations).toEqual([]);
    // No CDN, nothing fetched from the network: every request of the run went to loopback.
    expect(requested.filter((u) => !/^http:\/\/127\.0\.0\.1:\d+\//.test(u))).toEqual([]);
  });
});
