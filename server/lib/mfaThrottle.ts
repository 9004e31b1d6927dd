import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tooMany } from './errors.js';
import { rateLimitsRepo } from '../repositories/rateLimits.js';

/**
 * INTERIM (branch `mfa`): the shape of `server/lib/signInThrottle.ts` (the `throttle` helper's, issue 19
 * shared contract 1) over the password step's own counters, so the second step is throttled like the
 * password until that module is merged; then the import in routes/visitor/mfa.ts names it and this
 * file goes. Failures count in the password step's buckets (5 a minute per e-mail and per address);
 * `begin` refuses once either is full.
 */
const MINUTE = 60_000;
const MAX_FAILURES = 5;

export interface SignInAttempt {
  keys: string[];
}

export function signInThrottle(app: FastifyInstance) {
  const limits = rateLimitsRepo(app.db);
  return {
    async begin(req: FastifyRequest, email: string): Promise<SignInAttempt> {
      const keys = [`login:email:${email.trim().toLowerCase()}`, `login:ip:${req.ip}`];
      for (const key of keys) if ((await limits.peek(key, MINUTE)) >= MAX_FAILURES) throw tooMany();
      return { keys };
    },
    async failed(attempt: SignInAttempt): Promise<void> {
      for (const key of attempt.keys) await limits.hit(key, MINUTE);
    },
    /** The device token is the `throttle` helper's; nothing to do here. */
    async succeeded(_attempt: SignInAttempt, _reply: FastifyReply, _userId: number): Promise<void> {},
  };
}
