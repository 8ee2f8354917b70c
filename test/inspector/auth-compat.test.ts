/**
 * The web inspector in chromium, against agents the demo is not: an HTTPS agent that wants a
 * client certificate (mutual TLS, spec §7.4; the files go to the inspector's server side, which
 * presents them on HTTP and gRPC calls alike; without them the gRPC handshake is refused), an
 * OAuth 2 client-credentials agent whose token the server side fetches from a loopback token
 * server (RFC 6749 §4.4; the secret never reaches browser storage), and A2A 0.3: the 0.3
 * interfaces of a hybrid card (`compat: ['0.3']`) and a pure 0.3 agent (@a2a-js/sdk 0.3.14).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInspector } from '../../src/inspector/handler.js';
import type { ServeResult } from '../../src/node/index.js';
import { serveHandler, type HandlerServer } from '../../src/node/serve-handler.js';
import { clientTlsPem, tlsClientFetch } from '../../src/node/tls-fetch.js';
import { startSdk03Server, type Sdk03Server } from '../interop/v03-sdk-server.js';
import { QUESTION } from '../interop/helpers.js';
import {
  hasOpenssl,
  makePki,
  writePki,
  type PkiFiles,
  type TestPki,
} from '../security/fixtures/certs.js';
import {
  buildAssets,
  hybridAgent,
  launchBrowser,
  mtlsAgent,
  NO_BROWSER,
  OAUTH,
  oauthAgent,
  pageActions,
  WAIT,
} from './browser.js';

const SHOTS = process.env.A2A_INSPECTOR_SCREENSHOTS === '1';
const SKIP = NO_BROWSER ?? (hasOpenssl() ? undefined : 'no openssl CLI to make the test PKI');
if (SKIP) console.warn(`\n*** SKIPPING the inspector's auth and 0.3 browser tests: ${SKIP} ***\n`);

describe.skipIf(SKIP !== undefined)(
  'web inspector: mTLS, OAuth 2, A2A 0.3',
  { timeout: 90_000 },
  () => {
    let browser: BrowserContext;
    let page: Page;
    let ui: ReturnType<typeof pageActions>;
    let inspector: HandlerServer;
    let pki: TestPki;
    let files: PkiFiles;
    let mtls: ServeResult;
    let oauth: Awaited<ReturnType<typeof oauthAgent>>;
    let hybrid: ServeResult;
    let sdk03: Sdk03Server;
    /** Bodies of every API answer the page got (streams aside): no secret may be in them. */
    const answers: Promise<string>[] = [];

    beforeAll(async () => {
      const assets = await buildAssets();
      pki = makePki();
      files = writePki(pki);
      [mtls, oauth, hybrid, sdk03] = await Promise.all([
        mtlsAgent(pki),
        oauthAgent(),
        hybridAgent(),
        startSdk03Server(),
      ]);
      // As `a2a inspect --cacert ca.pem`: the agent's server certificate is from the test CA.
      const handler = createInspector({
        assetsDir: assets.outDir,
        tls: { connect: tlsClientFetch, pem: clientTlsPem, files: { ca: files.ca } },
      });
      inspector = await serveHandler((request) => handler.handle(request), {
        port: 0,
        host: '127.0.0.1',
      });
      browser = await launchBrowser();
      page = await browser.newPage();
      ui = pageActions(page);
      page.on('response', (response) => {
        const url = response.url();
        if (url.includes('/api/') && !url.endsWith('/api/stream')) {
          answers.push(response.text().catch(() => ''));
        }
      });
      await page.goto(`${inspector.url}/`);
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await Promise.all([
        inspector?.close(),
        mtls?.close(),
        oauth?.close(),
        hybrid?.close(),
        sdk03?.close(),
      ]);
    });

    const shot = async (name: string) => {
      if (SHOTS) await page.screenshot({ path: `docs/inspector/${name}.png`, fullPage: true });
    };

    /** Nothing in localStorage, sessionStorage, IndexedDB or cookies. */
    const browserStorage = async () => ({
      ...(await page.evaluate(async () => ({
        local: Object.keys(localStorage),
        session: Object.keys(sessionStorage),
        indexedDB: (await indexedDB.databases()).map((d) => d.name),
        documentCookie: document.cookie,
      }))),
      cookies: await browser.cookies(),
    });
    const EMPTY = { local: [], session: [], indexedDB: [], documentCookie: '', cookies: [] };

    it('asks an mTLS agent for client certificate files and calls it with them (spec §7.4)', async () => {
      await ui.connect(mtls.url);
      expect(mtls.url).toMatch(/^https:/);
      await ui.send('hi', false);
      await page.locator('[data-auth-reason]').waitFor(WAIT);
      const form = page.locator('form[data-scheme=mtls]');
      expect(await form.textContent()).toContain('required');
      expect(await form.locator('[data-configured]').count()).toBe(0); // a CA alone is no certificate
      expect(await page.inputValue('#mtls-ca')).toBe(files.ca); // given at start, as --cacert
      await shot('auth-mtls');
      // A path the server side cannot read is refused, saying which file.
      await page.fill('#mtls-cert', '/nonexistent/client.pem');
      await page.fill('#mtls-key', files.clientKey);
      await form.locator('button[type=submit]').click();
      await form
        .locator('[role=alert]:has-text("cannot read the client certificate file")')
        .waitFor(WAIT);
      await page.fill('#mtls-cert', files.clientCert);
      await form.locator('button[type=submit]').click();
      await form.locator('[data-configured]').waitFor(WAIT);
      await ui.send('hi', false);
      // The principal is the certificate's subject: the agent saw the client certificate.
      await page.locator('li[data-who=artifact]:has-text("mtls echo: hi")').waitFor(WAIT);
      expect(await page.locator('li[data-who=artifact]').last().textContent()).toMatch(
        /CN=alice|alice/,
      );
      await ui.tab('Wire');
      const entry = page.locator('li[data-wire]:has-text("mtls echo: hi")').last();
      await entry.locator('summary').click();
      expect(await entry.locator('pre.curl').textContent()).toContain(
        `--cert '${files.clientCert}'`,
      );
      expect(await page.content()).not.toContain('PRIVATE KEY');
      expect(await browserStorage()).toEqual(EMPTY);
    });

    it("presents the same files on gRPC calls, made by the inspector's server side (spec §7.4, §10)", async () => {
      await ui.connect(mtls.url);
      // Forget the certificate (the CA given at start stays): the gRPC handshake is refused.
      await ui.tab('Auth');
      const form = page.locator('form[data-scheme=mtls]');
      await page.fill('#mtls-cert', '');
      await page.fill('#mtls-key', '');
      await form.locator('button[type=submit]').click();
      await page.waitForFunction(
        () => !document.querySelector('form[data-scheme=mtls] [data-configured]'),
        undefined,
        WAIT,
      );
      await page.selectOption('#binding', 'GRPC');
      await ui.newChat();
      await ui.send('over grpc', false);
      const refused = page.locator('li[data-who=error]:has-text("certificate required")');
      await refused.waitFor({ ...WAIT, state: 'attached' });
      // The refusal asks for the certificate: the Auth view opens and says why.
      await page.locator('[data-auth-reason]:has-text("certificate required")').waitFor(WAIT);
      await shot('auth-grpc-refused');
      await page.fill('#mtls-cert', files.clientCert);
      await page.fill('#mtls-key', files.clientKey);
      await form.locator('button[type=submit]').click();
      await form.locator('[data-configured]').waitFor(WAIT);
      expect(await page.inputValue('#binding')).toBe('GRPC');
      await ui.send('over grpc', true);
      await page
        .locator('li[data-who=artifact]:has-text("mtls echo: over grpc (CN=alice")')
        .waitFor(WAIT);
      await page.locator('[data-state=completed]').last().waitFor(WAIT);
      await ui.tab('Chat');
      await shot('chat-grpc-mtls');
      await ui.tab('Wire');
      const entry = page
        .locator('li[data-wire]:has(pre.curl:has-text("A2AService/SendStreamingMessage"))')
        .first();
      await entry.locator('summary').click();
      const curl = (await entry.locator('pre.curl').textContent()) ?? '';
      expect(curl).toContain(`grpcurl -cert '${files.clientCert}' -key '${files.clientKey}'`);
      expect(curl).not.toContain('-plaintext');
      expect(await page.content()).not.toContain('PRIVATE KEY');
      expect(await browserStorage()).toEqual(EMPTY);
    });

    it('fetches an OAuth 2 client-credentials token on the server side; the secret stays out of the browser (RFC 6749 §4.4)', async () => {
      await ui.connect(oauth.agent.url);
      await ui.send('hi', false);
      await page.locator('[data-auth-reason]').waitFor(WAIT);
      const form = page.locator('form[data-scheme=oauth]');
      expect(await form.textContent()).toContain('required');
      expect(await page.inputValue('#oauth-tokenUrl')).toBe(oauth.tokenUrl);
      expect(await page.inputValue('#oauth-scope')).toBe('a2a.invoke');
      await page.fill('#oauth-clientId', OAUTH.clientId);
      await page.fill('#oauth-clientSecret', OAUTH.clientSecret);
      await form.locator('button[type=submit]').click();
      await form.locator('[data-configured]').waitFor(WAIT);
      expect(await page.inputValue('#oauth-clientSecret')).toBe(''); // cleared once sent
      await shot('auth-oauth');
      await ui.send('hi', true);
      await page.locator('li[data-who=artifact]:has-text("oauth echo: hi (svc)")').waitFor(WAIT);
      expect(oauth.tokenRequests()).toBe(1);
      await ui.send('again', false);
      await page.locator('li[data-who=artifact]:has-text("oauth echo: again (svc)")').waitFor(WAIT);
      expect(oauth.tokenRequests()).toBe(1); // cached until shortly before it expires
      await ui.tab('Wire');
      await page.locator(`li[data-wire]:has-text("${oauth.tokenUrl}")`).first().waitFor(WAIT);
      for (const li of await page.locator('li[data-wire] summary').all()) await li.click();
      const shown = (await page.content()) + (await page.locator('.wire').innerText());
      expect(shown).toContain('authorization: Basic •••');
      expect(shown).toContain('authorization: Bearer •••');
      expect(shown).not.toContain(OAUTH.clientSecret);
      expect(shown).not.toContain(OAUTH.token);
      expect(shown).not.toContain(btoa(`${OAUTH.clientId}:${OAUTH.clientSecret}`));
      const bodies = await Promise.all(answers);
      expect(bodies.length).toBeGreaterThan(5);
      for (const body of bodies) {
        expect(body).not.toContain(OAUTH.clientSecret);
        expect(body).not.toContain(OAUTH.token);
      }
      expect(await browserStorage()).toEqual(EMPTY);
    });

    it("offers the 0.3 interfaces of a hybrid card (compat: ['0.3']) and calls over them", async () => {
      await ui.connect(hybrid.url);
      expect(await page.locator('[data-versions]').getAttribute('data-versions')).toBe('1.0 0.3');
      const rows = await page.locator('table.interfaces tbody tr').allTextContents();
      expect(rows.filter((r) => r.includes('0.3'))).toHaveLength(2);
      await shot('card-hybrid-0.3');
      for (const choice of ['JSONRPC@0.3', 'HTTP+JSON@0.3']) {
        expect(await page.locator(`#binding option[value="${choice}"]`).isDisabled()).toBe(false);
      }
      await page.selectOption('#binding', 'JSONRPC@0.3');
      await ui.newChat();
      await ui.send('over jsonrpc 0.3', true);
      await page
        .locator('li[data-who=artifact]:has-text("hybrid echo: over jsonrpc 0.3")')
        .waitFor(WAIT);
      await page.locator('[data-state=completed]').last().waitFor(WAIT);
      await page.selectOption('#binding', 'HTTP+JSON@0.3');
      await ui.newChat();
      await ui.send('over rest 0.3', false);
      await page
        .locator('li[data-who=artifact]:has-text("hybrid echo: over rest 0.3")')
        .waitFor(WAIT);
      await ui.tab('Wire');
      await page.locator('li[data-wire]:has-text("/v1/message:send")').first().waitFor(WAIT);
      // The 0.3 method name, and the events as the 0.3 agent sent them (`kind`, final).
      const streamed = page.locator('li[data-wire]:has-text(\'"method":"message/stream"\')');
      await streamed.locator('summary').click();
      const text = (await streamed.textContent()) ?? '';
      expect(text).toContain('"kind":"artifact-update"');
      expect(text).toContain('hybrid echo: over jsonrpc 0.3');
      expect(text).not.toContain('a2a-version: 1.0');
    });

    it('talks to a pure 0.3 agent (@a2a-js/sdk 0.3.14): card, multi-turn, both bindings', async () => {
      await ui.connect(sdk03.url);
      expect(await page.locator('[data-versions]').getAttribute('data-versions')).toBe('0.3');
      expect(await page.locator('[data-versions]').textContent()).toContain('A2A 0.3 card');
      expect(await page.inputValue('#binding')).toBe('JSONRPC@0.3');
      await shot('card-v03');
      await ui.newChat();
      await ui.send('ask', true);
      const prompt = page.locator('li.prompt[data-state=input-required]');
      await prompt.waitFor(WAIT);
      expect(await prompt.textContent()).toContain(QUESTION);
      const first = await ui.taskId();
      await ui.send('Ada', true);
      await page.locator('li[data-who=artifact]:has-text("thanks, Ada")').waitFor(WAIT);
      expect(await ui.taskId()).toBe(first);
      await page.selectOption('#binding', 'HTTP+JSON@0.3');
      await ui.newChat();
      await ui.send('rest', true);
      await page.locator('li[data-who=artifact]:has-text("echo: rest")').waitFor(WAIT);
      await page.locator('[data-state=completed]').last().waitFor(WAIT);
    });
  },
);
