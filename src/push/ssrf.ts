/**
 * The SSRF guard of webhook URLs (spec §13.2): https only, no credentials in the URL, no local
 * host names, and no address in a blocked range (see ip-ranges.ts), unless the host is
 * allow-listed. Checked when a config is created and again at connect time, on every address the
 * name resolves to; the transport then connects to the vetted address itself, so a DNS answer
 * that changes between check and connect (rebinding) cannot redirect the request.
 */
import { lookup } from 'node:dns/promises';
import { A2AError } from '../core/errors.js';
import { blockedAddressReason, parseIp } from './ip-ranges.js';

/** One address of a resolved host name. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to all its addresses (injectable for tests; default `dns.lookup`). */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The system resolver: `dns.lookup` with every address, in the resolver's order. */
export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** A webhook URL the guard refuses; `reason` says why in words a client can act on. */
export class WebhookRefused extends Error {
  override readonly name = 'WebhookRefused';
  constructor(readonly reason: string) {
    super(`push notification URL refused: ${reason}`);
  }
}

/** Options of {@link WebhookGuard}. */
export interface WebhookGuardOptions {
  /**
   * Hosts exempt from every check (http allowed, any address): `host` (any port) or
   * `host:port`. For loopback receivers in tests and trusted internal webhooks.
   */
  readonly allowHosts?: readonly string[] | undefined;
  /** Default {@link systemResolver}. */
  readonly resolver?: Resolver | undefined;
  /**
   * Schemes served by a push sink (`nats:`), with the sink's own check (the reason a URL is
   * refused, or undefined): those URLs skip the web checks, which do not apply to them.
   */
  readonly schemes?: ReadonlyMap<string, (url: string) => string | undefined> | undefined;
}

/** How long config creation waits for DNS before accepting the name unchecked. */
const CREATE_TIME_LOOKUP_MS = 2_000;

const LOCAL_SUFFIXES = ['.localhost', '.local', '.localdomain', '.internal', '.home.arpa'];

/** Checks webhook URLs at create time and picks a vetted address at connect time. */
export class WebhookGuard {
  private readonly allowed: readonly { host: string; port: string | undefined }[];
  private readonly resolver: Resolver;
  private readonly schemes: ReadonlyMap<string, (url: string) => string | undefined>;

  constructor(options: WebhookGuardOptions = {}) {
    this.allowed = (options.allowHosts ?? []).map(parseAllowed);
    this.resolver = options.resolver ?? systemResolver;
    this.schemes = options.schemes ?? new Map();
  }

  /** True when a push sink serves the scheme of `url`. */
  isSink(url: URL): boolean {
    return this.schemes.has(url.protocol);
  }

  /** True when the URL's host (and port, when the entry names one) is allow-listed. */
  isAllowed(url: URL): boolean {
    const host = bare(url.hostname);
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    return this.allowed.some((a) => a.host === host && (a.port === undefined || a.port === port));
  }

  /** The URL parsed and checked without resolving it; throws {@link WebhookRefused}. */
  check(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new WebhookRefused('it is not an absolute URL');
    }
    const sink = this.schemes.get(url.protocol);
    if (sink) {
      const reason = sink(raw);
      if (reason !== undefined) throw new WebhookRefused(reason);
      return url;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new WebhookRefused(`scheme ${url.protocol} is not https`);
    }
    if (url.username || url.password) {
      throw new WebhookRefused('it carries credentials; use the config authentication instead');
    }
    if (this.isAllowed(url)) return url;
    if (url.protocol !== 'https:') throw new WebhookRefused('webhooks must use https');
    const host = bare(url.hostname);
    if (parseIp(host)) {
      const reason = blockedAddressReason(host);
      if (reason) throw new WebhookRefused(`${host} is ${reason}`);
      return url;
    }
    if (host === 'localhost' || LOCAL_SUFFIXES.some((s) => host.endsWith(s))) {
      throw new WebhookRefused(`${host} is a local host name`);
    }
    if (!host.includes('.')) {
      throw new WebhookRefused(`${host} is a single-label name that resolves on the local network`);
    }
    return url;
  }

  /**
   * Create-time check (PushNotifier.validateUrl): URL rules, then the addresses the name resolves
   * to now. A name that does not resolve (within 2 s) is accepted: delivery checks it again. Throws
   * A2AError INVALID_PARAMS with a field violation on `url` saying why.
   */
  async validate(raw: string): Promise<void> {
    try {
      const url = this.check(raw);
      if (this.isSink(url) || this.isAllowed(url) || parseIp(url.hostname)) return;
      // A slow or failing resolver does not hold the request up: delivery checks again anyway.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<undefined>((resolve) => {
        timer = setTimeout(resolve, CREATE_TIME_LOOKUP_MS, undefined);
      });
      const addresses = await Promise.race([
        this.resolver(bare(url.hostname)).catch(() => undefined),
        late,
      ]).finally(() => clearTimeout(timer));
      if (addresses) vet(bare(url.hostname), addresses);
    } catch (error) {
      if (!(error instanceof WebhookRefused)) throw error;
      throw new A2AError('INVALID_PARAMS', `Push notification URL refused: ${error.reason}`, {
        fieldViolations: [{ field: 'url', description: error.reason }],
      });
    }
  }

  /**
   * Connect-time check: resolves the host, refuses it when any of its addresses is blocked, and
   * returns the address to connect to. Throws {@link WebhookRefused}, or the resolver's error.
   */
  async target(url: URL): Promise<ResolvedAddress> {
    const host = bare(url.hostname);
    const literal = parseIp(host);
    if (literal) {
      if (!this.isAllowed(url)) this.check(url.href);
      return { address: host, family: literal.length === 4 ? 4 : 6 };
    }
    const addresses = await this.resolver(host);
    if (!this.isAllowed(url)) vet(host, addresses);
    const first = addresses[0];
    if (!first) throw new WebhookRefused(`${host} resolves to no address`);
    return first;
  }
}

function vet(host: string, addresses: readonly ResolvedAddress[]): void {
  for (const { address } of addresses) {
    const reason = blockedAddressReason(address);
    if (reason) throw new WebhookRefused(`${host} resolves to ${address}, ${reason}`);
  }
}

/** Host without IPv6 brackets or a trailing dot, lower case. */
function bare(hostname: string): string {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

function parseAllowed(entry: string): { host: string; port: string | undefined } {
  const text = entry.trim();
  // A bare IPv6 address (`::1`) has no port; `[::1]:8080` and `host:8080` do.
  if (!text.startsWith('[') && text.split(':').length > 2)
    return { host: bare(text), port: undefined };
  let url: URL;
  try {
    url = new URL(`http://${text}`);
  } catch {
    throw new TypeError(`allowHosts: ${JSON.stringify(entry)} is not a host or host:port`);
  }
  const port = /:\d+$/.test(text) ? text.replace(/^.*:/, '') : undefined;
  return { host: bare(url.hostname), port };
}
