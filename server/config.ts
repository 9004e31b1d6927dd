import path from 'node:path';

/** Runtime configuration, read once from the environment (README lists every variable). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  apiPassword: string;
  smtpUrl?: string;
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
   * ORPHAN_FILE_MINUTES (default 15): at start, uploaded files left pending (or half written) longer than
   * this by a process that died are swept (lib/fileSweep.ts). The age spares the writes under way in
   * other server processes sharing DATA_DIR/files; a single process may use 0.
   */
  orphanFileMinutes: number;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const production = env.NODE_ENV === 'production';
  if (production && !env.API_PASSWORD) {
    throw new ConfigError('API_PASSWORD is required when NODE_ENV=production');
  }
  if (production && !env.SMTP_URL) {
    throw new ConfigError('SMTP_URL is required when NODE_ENV=production');
  }
  const dataDir = path.resolve(env.DATA_DIR || './data');
  return {
    port: Number(env.PORT || 3000),
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    apiPassword: env.API_PASSWORD || 'change-me',
    smtpUrl: env.SMTP_URL || undefined,
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
    orphanFileMinutes: Math.max(0, Number(env.ORPHAN_FILE_MINUTES ?? 15) || 0),
    ...overrides,
  };
}
