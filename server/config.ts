import net from 'node:net';
import path from 'node:path';

/** Runtime configuration, read once from the environment (README lists every variable). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /**
   * FILES_URL: where uploaded files live (lib/files.ts). Unset: in the database with DATABASE_URL (so
   * several processes need no shared volume), else under DATA_DIR/files. `local`, `database`, or
   * `s3://bucket/prefix?…` (parseFilesUrl below).
   */
  files?: FilesSetting;
  apiPassword: string;
  smtpUrl?: string;
  /**
   * PUBLIC_URL: the portal's address as its users reach it (links in mail: the request's screen, the public
   * tracking page). Default `http://localhost:<PORT>`; no trailing slash.
   */
  publicUrl: string;
  /** Sender of the portal's mail (reset codes, access-request outcomes, request status changes). */
  mailFrom: string;
  production: boolean;
  /** Demo data (demo logins, demo carrier with tariffs) is loaded outside production unless DEMO_DATA=0. */
  demoData: boolean;
  adminEmail?: string;
  adminPassword?: string;
  /** Serve the built browser app from this folder when it exists. */
  staticDir?: string;
  logLevel: string;
  redisUrl?: string;
  /** Visitor quotes allowed per address and minute (QUOTE_RATE_LIMIT, default 30), so tariffs cannot be scraped wholesale. */
  quoteRateLimit: number;
  /** How long a process reuses the tariff rows it read for a quote (PRICING_CACHE_MS; default 5000, 0 in tests). */
  pricingCacheMs: number;
  /**
   * The proxies whose X-Forwarded-For / -Proto / -Host are believed (TRUST_PROXY): false (unset) trusts
   * no one, so the client address is the socket's; `true` trusts every hop, a number that many hops, a
   * list the given addresses / CIDR ranges (Fastify's `trustProxy`).
   */
  trustProxy: boolean | number | string[];
  /**
   * ORPHAN_FILE_MINUTES (default 15): at start, uploaded files left pending (or half written) longer than
   * this by a process that died are swept (lib/fileSweep.ts). The age spares the writes under way in
   * other server processes sharing the file store; a single process may use 0.
   */
  orphanFileMinutes: number;
  /**
   * VALIDATE_RESPONSES=1 (default under NODE_ENV=test, so the API tests and the browser harness): every JSON answer is checked against the schema its route declares for
   * its status; a mismatch is logged and answered 500 (plugins/answers.ts). Off in production.
   */
  validateResponses: boolean;
  /** REQUIRE_ADMIN_MFA=1: admins (roles Admin and Admin Users) get no session until they enrol a TOTP app (docs/two-factor.md). */
  requireAdminMfa: boolean;
  /** AUDIT_DAYS (default 400): audit-log entries older than this many days are removed by the server (at start, then daily). */
  auditDays: number;
  /** API_KEY_RATE_PER_MINUTE (default 600): calls one API key may make in a minute before a 429 (docs/integrations.md). */
  apiKeyRatePerMinute: number;
  /**
   * Public tracking (GET /visitor/track, docs/tracking.md), per client address: TRACK_RATE_PER_MINUTE (default 60)
   * calls of any outcome a minute; TRACK_MISS_LIMIT (default 20) wrong code / postal code pairs within
   * TRACK_MISS_WINDOW_MINUTES (default 15, at most 2880), a sliding window shared by every server process.
   */
  track: { ratePerMinute: number; missLimit: number; missWindowMinutes: number };
  /**
   * Webhooks (docs/webhooks.md). WEBHOOK_POLL_MS (default 1000; 0 under NODE_ENV=test, where tests call
   * `app.webhooks.runOnce()`): how often the worker looks for due deliveries; 0 = never on its own.
   */
  webhookPollMs: number;
  /** WEBHOOK_BACKOFF_MS (default 30000): the first retry's delay; each next one is 4 times longer (at most 240 times this). */
  webhookBackoffMs: number;
  /** WEBHOOK_RETRY_WINDOW_MS (default 24 h): after this long from its first attempt a failing delivery is given up. */
  webhookWindowMs: number;
  /** WEBHOOK_TIMEOUT_MS (default 10000): how long an attempt waits for the receiver's answer. */
  webhookTimeoutMs: number;
  /** WEBHOOK_KEEP_DAYS (default 30): delivered and given-up deliveries older than this are removed (hourly). */
  webhookKeepDays: number;
  /**
   * METRICS_TOKEN (issue 32): `GET /metrics` is served to a caller on the loopback interface and, when this
   * is set, to any caller presenting it as `Authorization: Bearer <token>` (plugins/metrics.ts).
   */
  metricsToken?: string;
  /**
   * SHUTDOWN_TIMEOUT_MS (default 10000, at least 1000): how long a stop (SIGTERM, SIGINT) may take to answer
   * the requests in flight, end the event streams, hand back webhook deliveries and close the database;
   * past it the remaining connections are cut and the process exits 1 (server/lib/shutdown.ts).
   */
  shutdownTimeoutMs: number;
}

export class ConfigError extends Error {}

/** Where uploaded files are kept: FILES_URL parsed (lib/files.ts opens the store). */
export type FilesSetting =
  | { kind: 'local' }
  | { kind: 'database' }
  | {
      kind: 's3';
      bucket: string;
      /** '' or a key prefix ending in '/' */
      prefix: string;
      /** an S3-compatible server's address (MinIO, Ceph, …); unset: AWS itself */
      endpoint?: string;
      region: string;
      /** path-style addressing (`endpoint/bucket/key`), which servers without per-bucket host names need */
      forcePathStyle: boolean;
      /** from the URL's user and password; unset: the AWS SDK's own chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, instance roles) */
      credentials?: { accessKeyId: string; secretAccessKey: string };
    };

/**
 * FILES_URL (README): `local` (DATA_DIR/files), `database` (a table of the portal's database), or
 * `s3://[KEY:SECRET@]bucket[/prefix][?endpoint=http://host:9000&region=eu-south-1&path_style=1]`.
 * Choices: credentials in the URL are allowed (percent-encoded) for servers outside AWS, but the AWS
 * SDK's standard chain is the default, so a deployment on AWS keeps them out of the URL; `path_style`
 * defaults to on when an endpoint is given (MinIO-like servers rarely have per-bucket host names) and
 * off for AWS; the region comes from `region`, then AWS_REGION, then us-east-1 (what S3-compatible
 * servers accept whatever their location).
 */
export function parseFilesUrl(value: string, env: NodeJS.ProcessEnv = process.env): FilesSetting {
  const v = value.trim();
  if (v === 'local' || v === 'database') return { kind: v };
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new ConfigError(`FILES_URL: "${v.replace(/\/\/[^@/]*@/, '//…@')}" is not local, database or an s3:// URL`);
  }
  if (url.protocol !== 's3:') throw new ConfigError(`FILES_URL: ${url.protocol} is not supported (local, database or s3://bucket/prefix)`);
  const bucket = url.hostname;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new ConfigError(`FILES_URL: "${bucket}" is not an S3 bucket name`);
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  const known = new Set(['endpoint', 'region', 'path_style']);
  for (const key of url.searchParams.keys()) if (!known.has(key)) throw new ConfigError(`FILES_URL: unknown parameter "${key}" (endpoint, region, path_style)`);
  const endpoint = url.searchParams.get('endpoint') || undefined;
  if (endpoint && !/^https?:\/\/[^/]+\/?$/.test(endpoint)) throw new ConfigError(`FILES_URL: endpoint "${endpoint}" is not http(s)://host[:port]`);
  const pathStyle = url.searchParams.get('path_style');
  if (pathStyle !== null && !['0', '1', 'true', 'false'].includes(pathStyle)) throw new ConfigError('FILES_URL: path_style is 1 or 0');
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  if (!!user !== !!password) throw new ConfigError('FILES_URL: give both the access key and the secret (s3://KEY:SECRET@bucket/…) or neither');
  return {
    kind: 's3',
    bucket,
    prefix: prefix ? `${prefix}/` : '',
    endpoint: endpoint?.replace(/\/$/, ''),
    region: url.searchParams.get('region') || env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
    forcePathStyle: pathStyle === null ? !!endpoint : pathStyle === '1' || pathStyle === 'true',
    credentials: user ? { accessKeyId: user, secretAccessKey: password } : undefined,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const production = env.NODE_ENV === 'production';
  if (production && !env.API_PASSWORD) {
    throw new ConfigError('API_PASSWORD is required when NODE_ENV=production');
  }
  if (production && !env.SMTP_URL) {
    throw new ConfigError('SMTP_URL is required when NODE_ENV=production');
  }
  // A bearer anyone on the network may try: too short a token could be guessed (a long random string: `openssl rand -hex 24`).
  if (env.METRICS_TOKEN && env.METRICS_TOKEN.length < 16) {
    throw new ConfigError('METRICS_TOKEN must have at least 16 characters');
  }
  const dataDir = path.resolve(env.DATA_DIR || './data');
  return {
    port: Number(env.PORT || 3000),
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    files: env.FILES_URL ? parseFilesUrl(env.FILES_URL) : undefined,
    apiPassword: env.API_PASSWORD || 'change-me',
    smtpUrl: env.SMTP_URL || undefined,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${Number(env.PORT || 3000)}`).replace(/\/+$/, ''),
    mailFrom: env.MAIL_FROM || 'Portale Trasporti <no-reply@localhost>',
    production,
    demoData: !production && env.DEMO_DATA !== '0',
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    staticDir: path.resolve(env.STATIC_DIR || './dist'),
    logLevel: env.LOG_LEVEL || (production ? 'info' : 'info'),
    redisUrl: env.REDIS_URL || undefined,
    quoteRateLimit: Math.max(1, Number(env.QUOTE_RATE_LIMIT) || 30),
    pricingCacheMs: Math.max(0, Number(env.PRICING_CACHE_MS ?? (env.NODE_ENV === 'test' ? 0 : 5000)) || 0),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    orphanFileMinutes: Math.max(0, Number(env.ORPHAN_FILE_MINUTES ?? 15) || 0),
    // On in tests (NODE_ENV=test: the API helpers and the browser harness), off elsewhere unless asked for.
    validateResponses: env.VALIDATE_RESPONSES ? env.VALIDATE_RESPONSES === '1' : env.NODE_ENV === 'test',
    requireAdminMfa: env.REQUIRE_ADMIN_MFA === '1',
    auditDays: Math.max(1, Math.floor(Number(env.AUDIT_DAYS ?? 400)) || 400),
    apiKeyRatePerMinute: Math.max(1, Math.floor(Number(env.API_KEY_RATE_PER_MINUTE ?? 600)) || 600),
    track: {
      ratePerMinute: Math.max(1, Math.floor(Number(env.TRACK_RATE_PER_MINUTE ?? 60)) || 60),
      missLimit: Math.max(1, Math.floor(Number(env.TRACK_MISS_LIMIT ?? 20)) || 20),
      missWindowMinutes: Math.min(2880, Math.max(1, Math.floor(Number(env.TRACK_MISS_WINDOW_MINUTES ?? 15)) || 15)),
    },
    webhookPollMs: Math.max(0, Math.floor(Number(env.WEBHOOK_POLL_MS ?? (env.NODE_ENV === 'test' ? 0 : 1000))) || 0),
    webhookBackoffMs: Math.max(1, Math.floor(Number(env.WEBHOOK_BACKOFF_MS ?? 30_000)) || 30_000),
    webhookWindowMs: Math.max(1, Math.floor(Number(env.WEBHOOK_RETRY_WINDOW_MS ?? 86_400_000)) || 86_400_000),
    webhookTimeoutMs: Math.max(1, Math.floor(Number(env.WEBHOOK_TIMEOUT_MS ?? 10_000)) || 10_000),
    webhookKeepDays: Math.max(1, Math.floor(Number(env.WEBHOOK_KEEP_DAYS ?? 30)) || 30),
    metricsToken: env.METRICS_TOKEN || undefined,
    shutdownTimeoutMs: Math.max(1000, Math.floor(Number(env.SHUTDOWN_TIMEOUT_MS ?? 10_000)) || 10_000),
    ...overrides,
  };
}

/** proxy-addr's names for the private ranges, which Fastify accepts beside addresses and CIDRs. */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: unset, empty or `false` → trust no proxy; `true` → every hop; a whole number → that many
 * hops; otherwise a comma-separated list of addresses, CIDR ranges or range names. A typo stops the
 * start (a proxy silently not trusted would put every client behind one address and one throttle).
 */
export function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  const v = (value ?? '').trim();
  if (v === '' || v.toLowerCase() === 'false') return false;
  if (v.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  const list = v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  for (const entry of list) {
    const [addr, bits, extra] = entry.split('/');
    const kind = net.isIP(addr);
    const maxBits = kind === 4 ? 32 : 128;
    const ok =
      RANGE_NAMES.includes(entry) ||
      (kind !== 0 && extra === undefined && (bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits) || (kind === 4 && net.isIPv4(bits))));
    if (!ok) throw new ConfigError(`TRUST_PROXY: "${entry}" is not an address, a CIDR range, ${RANGE_NAMES.join(', ')}, true or a hop count`);
  }
  return list;
}
