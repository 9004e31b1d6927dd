import { spawn } from 'node:child_process';
import { BackupError } from './manifest.js';

/**
 * pg_dump, pg_restore and psql (Debian's postgresql-client) run with the portal's DATABASE_URL. The
 * password goes through PGPASSWORD and the URL's `options` (the tests' `-c search_path=…`) through
 * PGOPTIONS, not the command line, where other local users could read them; the rest of the URL
 * (host, port, database, sslmode…) is given as the connection string.
 */
export function pgConnection(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  url.password = '';
  const options = url.searchParams.get('options');
  if (options) env.PGOPTIONS = options;
  url.searchParams.delete('options');
  url.searchParams.delete('application_name');
  return { dbname: url.toString(), env };
}

/** Runs a PostgreSQL client tool; its standard error becomes the error's message. Answers its standard output when asked. */
export function runPgTool(tool: 'pg_dump' | 'pg_restore' | 'psql', args: string[], env: NodeJS.ProcessEnv, opts: { stdout?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', opts.stdout ? 'pipe' : 'ignore', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (c: Buffer) => out.push(c));
    child.stderr?.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'ENOENT' ? new BackupError(`${tool} is not installed (Debian: apt-get install postgresql-client)`) : e),
    );
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new BackupError(`${tool} failed (exit ${code}): ${Buffer.concat(err).toString('utf8').trim().slice(0, 2000)}`));
    });
  });
}

/** A quoted identifier for SQL and for pg_dump's -n pattern. */
export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
