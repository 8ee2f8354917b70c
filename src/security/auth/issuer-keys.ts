/**
 * The keys of one JWT issuer, fetched with a bounded rate: the metadata document (OIDC discovery
 * or RFC 8414) once, the JWKS through jose's remote key set (cached for `cacheMaxAgeMs`, refetched
 * for an unknown key id at most once per `cooldownMs`). A failed fetch is not retried for
 * `cooldownMs`: meanwhile the issuer is reported unavailable at once, without I/O, and keys fetched
 * before keep verifying tokens. So no request, however many or however wrong, makes the server
 * fetch more than once per cooldown.
 */
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  errors,
  type JWTVerifyGetKey,
} from 'jose';

/** Where and how to fetch an issuer's keys. */
export interface IssuerKeysOptions {
  /** The JWKS URL, when configured; else the metadata document's `jwks_uri`. */
  readonly jwksUrl?: string | undefined;
  /** The metadata document (needed when `jwksUrl` or the issuer are not configured). */
  readonly metadataUrl?: string | undefined;
  /** The configured issuer(s); the metadata's `issuer` must be one of them. */
  readonly issuer?: readonly string[] | undefined;
  readonly allowInsecure?: boolean | undefined;
  readonly fetch?: typeof fetch | undefined;
  /** Each fetch gives up after this long (default 5000 ms). */
  readonly timeoutMs?: number | undefined;
  /** No new fetch for this long after a failed one or a refetch for an unknown key (default 30 s). */
  readonly cooldownMs?: number | undefined;
  /** Keys are refreshed once they are this old (default 10 min). */
  readonly cacheMaxAgeMs?: number | undefined;
  /** Clock in milliseconds, for tests (default `Date.now`). */
  readonly now?: (() => number) | undefined;
}

/** The issuer could not be reached or answered nonsense: no verdict on the token is possible. */
export class IssuerUnavailableError extends Error {
  override readonly name = 'IssuerUnavailableError';

  constructor(
    message: string,
    /** Seconds until the next fetch is attempted (`Retry-After`). */
    readonly retryAfterSeconds: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The resolved keys and issuer. */
export interface IssuerKeySet {
  readonly getKey: JWTVerifyGetKey;
  readonly issuer: string[] | undefined;
}

/** Default time between fetch attempts after a failure. */
export const DEFAULT_ISSUER_COOLDOWN_MS = 30_000;

/** The keys of one issuer (see the module comment). */
export class IssuerKeys {
  private readonly cooldownMs: number;
  private readonly now: () => number;
  private resolved: IssuerKeySet | undefined;
  private pending: Promise<IssuerKeySet> | undefined;
  private failure: { at: number; error: Error } | undefined;
  private jwksLocation: string | undefined;

  constructor(private readonly options: IssuerKeysOptions) {
    this.cooldownMs = options.cooldownMs ?? DEFAULT_ISSUER_COOLDOWN_MS;
    this.jwksLocation = options.jwksUrl;
    this.now = options.now ?? Date.now;
    // A URL that can never be fetched is a configuration error: say so at start-up.
    if (options.jwksUrl !== undefined) checkedUrl(options.jwksUrl, options, 'JWKS');
    if (options.metadataUrl !== undefined) checkedUrl(options.metadataUrl, options, 'metadata');
  }

  /** The key set, fetching the metadata first if needed; throws {@link IssuerUnavailableError}. */
  async keys(): Promise<IssuerKeySet> {
    if (this.resolved !== undefined) return this.resolved;
    this.throwIfCoolingDown();
    this.pending ??= this.discover().then(
      (resolved) => {
        this.resolved = resolved;
        this.failure = undefined;
        return resolved;
      },
      (error: unknown) => {
        this.pending = undefined;
        throw this.failed(error, 'metadata');
      },
    );
    return this.pending;
  }

  /** Fetches what is needed now (at start-up), so a broken issuer is reported before the first request. */
  async warmUp(): Promise<void> {
    const { getKey } = await this.keys();
    try {
      await (getKey as Partial<Pick<RemoteKeys, 'reload'>>).reload?.();
    } catch (error) {
      throw this.failed(error, 'JWKS');
    }
  }

  private async discover(): Promise<IssuerKeySet> {
    const { options } = this;
    let jwksUrl = options.jwksUrl;
    let issuer = options.issuer === undefined ? undefined : [...options.issuer];
    if (options.metadataUrl !== undefined && (jwksUrl === undefined || issuer === undefined)) {
      const metadata = await fetchMetadata(options.metadataUrl, options);
      if (issuer !== undefined && !issuer.includes(metadata.issuer)) {
        throw new Error(
          `the metadata at ${options.metadataUrl} names issuer ${metadata.issuer}, not the configured one`,
        );
      }
      issuer ??= [metadata.issuer];
      jwksUrl ??= metadata.jwksUri;
    }
    if (jwksUrl === undefined) throw new Error('no JWKS URL configured or discovered');
    this.jwksLocation = jwksUrl;
    const remote = createRemoteJWKSet(checkedUrl(jwksUrl, options, 'JWKS'), {
      timeoutDuration: options.timeoutMs ?? 5000,
      cooldownDuration: this.cooldownMs,
      cacheMaxAge: options.cacheMaxAgeMs ?? 600_000,
      ...(options.fetch === undefined ? {} : { [customFetch]: options.fetch }),
    });
    return { getKey: this.guarded(remote), issuer };
  }

  /**
   * jose's remote key set behind the failure cooldown: while cooling down, the keys fetched
   * before (if any) answer alone; a token error passes through as it is.
   */
  private guarded(remote: RemoteKeys): JWTVerifyGetKey {
    const stale = (
      header: Parameters<JWTVerifyGetKey>[0],
      token: Parameters<JWTVerifyGetKey>[1],
    ) => {
      const known = remote.jwks();
      if (known === undefined) throw this.unavailable();
      return createLocalJWKSet(known)(header, token);
    };
    const guarded = async (...args: Parameters<JWTVerifyGetKey>) => {
      if (this.coolingDown()) return stale(...args);
      try {
        const key = await remote(...args);
        this.failure = undefined;
        return key;
      } catch (error) {
        if (isTokenError(error)) throw error;
        this.failed(error, 'JWKS');
        return stale(...args);
      }
    };
    return Object.assign(guarded, { reload: () => remote.reload() });
  }

  private coolingDown(): boolean {
    return this.failure !== undefined && this.now() < this.failure.at + this.cooldownMs;
  }

  private throwIfCoolingDown(): void {
    if (this.coolingDown()) throw this.unavailable();
  }

  private failed(error: unknown, what: string): IssuerUnavailableError {
    const reason = error instanceof Error ? error.message : String(error);
    const location = what === 'metadata' ? this.options.metadataUrl : this.jwksLocation;
    const wrapped = new Error(`cannot fetch the issuer's ${what} (${location}): ${reason}`, {
      cause: error,
    });
    this.failure = { at: this.now(), error: wrapped };
    return this.unavailable();
  }

  private unavailable(): IssuerUnavailableError {
    const failure = this.failure;
    const waitMs = failure === undefined ? 0 : failure.at + this.cooldownMs - this.now();
    return new IssuerUnavailableError(
      failure?.error.message ?? 'the token issuer is unavailable',
      Math.max(1, Math.ceil(waitMs / 1000)),
      { cause: failure?.error },
    );
  }
}

type RemoteKeys = ReturnType<typeof createRemoteJWKSet>;

/** Errors about the token itself (an unknown key id, a bad signature…), not about fetching. */
function isTokenError(error: unknown): boolean {
  return (
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys ||
    error instanceof errors.JOSEAlgNotAllowed ||
    error instanceof errors.JOSENotSupported ||
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid
  );
}

/** The `issuer` and `jwks_uri` of an OIDC discovery / RFC 8414 metadata document. */
async function fetchMetadata(
  location: string,
  options: IssuerKeysOptions,
): Promise<{ issuer: string; jwksUri: string }> {
  const url = checkedUrl(location, options, 'metadata');
  const response = await (options.fetch ?? fetch)(url, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
  });
  if (!response.ok) throw new Error(`the metadata at ${location} answered HTTP ${response.status}`);
  const body = (await response.json()) as Record<string, unknown>;
  const { issuer, jwks_uri: jwksUri } = body;
  if (typeof issuer !== 'string' || typeof jwksUri !== 'string') {
    throw new Error(`the metadata at ${location} lacks "issuer" or "jwks_uri"`);
  }
  return { issuer, jwksUri };
}

function checkedUrl(location: string, options: IssuerKeysOptions, what: string): URL {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new TypeError(`the ${what} URL ${location} is not a URL`);
  }
  if (url.protocol !== 'https:' && !(options.allowInsecure === true && url.protocol === 'http:')) {
    throw new TypeError(
      `the ${what} URL ${location} must use https (or set allowInsecure for tests)`,
    );
  }
  return url;
}
