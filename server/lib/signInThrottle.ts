import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerMessages } from '../i18n/index.js';
import { signIn } from '../i18n/signIn.js';
import { deviceTokensRepo, DEVICE_TOKEN_DAYS } from '../repositories/deviceTokens.js';
import { throttleRepo } from '../repositories/throttle.js';
import { ApiError } from './errors.js';

registerMessages(signIn);

/**
 * Sign-in throttling with device tokens (server.md §3 "Login", OWASP Authentication Cheat Sheet,
 * "device cookies"; docs/sign-in-throttling.md). Guessing is stopped without letting anyone lock a user
 * out: a browser that has signed in as a user before (its device token) is counted on its own, so an
 * attacker who locks the account for untrusted devices does not lock its owner out.
 *
 * Every attempt takes its slot in the counters BEFORE its secret is checked and gives it back when the
 * secret proves right (`succeeded`, `passed`), so a burst of concurrent guesses cannot all pass a check
 * made while the count still stood below the limit. A slot kept by `failed` is a failure.
 */

export const WINDOW_MS = 15 * 60_000;
/** Failures a device token takes in WINDOW_MS; the last one voids it. */
export const DEVICE_FAILURES = 10;
/** Untrusted failures an account takes in WINDOW_MS; then its untrusted sign-ins are refused for LOCK_MS. */
export const ACCOUNT_FAILURES = 10;
export const LOCK_MS = 15 * 60_000;
/** Untrusted failures an address takes in WINDOW_MS before its untrusted sign-ins are refused. */
export const ADDRESS_FAILURES = 100;

export const DEVICE_COOKIE = 'deviceToken';
export const DEVICE_HEADER = 'x-device-token';
/** A token as lib/tokens.ts makes them (base64url); anything else is not looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;

const bucket = {
  device: (id: number) => `signin:device:${id}`,
  account: (email: string) => `signin:account:${email}`,
  accountLock: (email: string) => `signin:account-lock:${email}`,
  address: (ip: string) => `signin:ip:${ip}`,
};

export interface SignInAttempt {
  /** The normalised e-mail. */
  readonly email: string;
  /** The presented device token when it is a valid one of this e-mail's account. */
  readonly device: { id: number; token: string } | null;
  /** The counted events (throttle_events ids) this attempt holds until it is settled. */
  readonly slots: number[];
  settled: boolean;
}

/** The value of cookie `name` in a Cookie header (RFC 6265 pairs), or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The device token the request presents: the `X-Device-Token` header (API clients), else the cookie. */
export function presentedDeviceToken(req: FastifyRequest): string | undefined {
  const header = req.headers[DEVICE_HEADER];
  const value = (Array.isArray(header) ? header[0] : header) ?? readCookie(req.headers.cookie, DEVICE_COOKIE);
  return value && TOKEN_SHAPE.test(value) ? value : undefined;
}

/** The Set-Cookie value of a device token (Secure when the request came over TLS, itself or via a trusted proxy). */
export function deviceCookie(token: string, secure: boolean): string {
  const parts = [`${DEVICE_COOKIE}=${token}`, `Max-Age=${DEVICE_TOKEN_DAYS * 86_400}`, 'Path=/api', 'HttpOnly', 'SameSite=Strict'];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

/** 429 with `Retry-After` and a message saying how long to wait, in the caller's language. */
export function lockedError(retryMs: number): ApiError {
  const seconds = Math.max(1, Math.ceil(retryMs / 1000));
  const minutes = Math.ceil(seconds / 60);
  const err = minutes === 1 ? new ApiError(429, 'auth.lockedOne') : new ApiError(429, 'auth.lockedMany', { minutes });
  err.headers = { 'retry-after': String(seconds) };
  return err;
}

/** The attempts a request began (settled at its response when the route did not settle them). */
const kAttempts = Symbol('signInAttempts');
type WithAttempts = FastifyRequest & { [kAttempts]?: SignInAttempt[] };
/** The instances that have the settling hook already. */
const hooked = new WeakSet<object>();

/**
 * The throttle of one Fastify instance; call it when the routes are registered (like a repository), so
 * that it can add its `onResponse` hook: an attempt the route left unsettled is given back when the
 * answer is a success (a right password followed by a second-factor step), counted as a failure otherwise.
 */
export function signInThrottle(app: Pick<FastifyInstance, 'db'> & { addHook?: (...args: any[]) => unknown }) {
  const throttle = throttleRepo(app.db);
  const devices = deviceTokensRepo(app.db);

  if (app.addHook && !hooked.has(app)) {
    hooked.add(app);
    app.addHook('onResponse', async (req: WithAttempts, reply: FastifyReply) => {
      for (const attempt of req[kAttempts] ?? []) {
        if (attempt.settled) continue;
        if (reply.statusCode < 400) await release(attempt);
        else await failed(attempt);
      }
    });
  }

  function track(req: WithAttempts, attempt: SignInAttempt) {
    (req[kAttempts] ??= []).push(attempt);
    return attempt;
  }

  /** Milliseconds until the oldest counted event of a full bucket leaves the window. */
  async function untilFree(b: string, windowMs: number) {
    const oldest = await throttle.oldest(b, windowMs);
    return oldest === null ? 1000 : oldest + windowMs - Date.now();
  }

  async function release(attempt: SignInAttempt) {
    if (attempt.settled) return;
    attempt.settled = true;
    for (const id of attempt.slots) await throttle.release(id);
  }

  /** The secret was wrong: counts one failure (against the valid device token alone, else the account and the address). */
  async function failed(attempt: SignInAttempt): Promise<void> {
    if (attempt.settled) return;
    attempt.settled = true;
    if (attempt.device) {
      const b = bucket.device(attempt.device.id);
      if ((await throttle.count(b, WINDOW_MS)) >= DEVICE_FAILURES) {
        // That browser is no longer trusted: its next sign-ins count as untrusted ones.
        await devices.void(attempt.device.id);
        await throttle.clear(b);
      }
      return;
    }
    // The 10th failure locks untrusted sign-ins of the account for LOCK_MS (one lock event at a time).
    if ((await throttle.count(bucket.account(attempt.email), WINDOW_MS)) >= ACCOUNT_FAILURES) {
      await throttle.take(bucket.accountLock(attempt.email), LOCK_MS, 1);
    }
  }

  return {
    /**
     * Call before checking any secret (password or TOTP code) for this e-mail from this request.
     * Throws ApiError 429 with a Retry-After (seconds) when the presented device token, the account
     * (untrusted) or the address (untrusted) is locked.
     */
    async begin(req: FastifyRequest, email: string): Promise<SignInAttempt> {
      const key = email.trim().toLowerCase();
      const presented = presentedDeviceToken(req);
      const found = presented ? await devices.findForEmail(presented, key) : undefined;
      if (found && presented) {
        const slot = await throttle.take(bucket.device(found.id), WINDOW_MS, DEVICE_FAILURES);
        if (slot === null) throw lockedError(await untilFree(bucket.device(found.id), WINDOW_MS));
        return track(req, { email: key, device: { id: found.id, token: presented }, slots: [slot], settled: false });
      }
      // Untrusted: a lock of the account first, then one slot of the account and one of the address.
      const lockedAt = await throttle.oldest(bucket.accountLock(key), LOCK_MS);
      if (lockedAt !== null) throw lockedError(lockedAt + LOCK_MS - Date.now());
      const accountSlot = await throttle.take(bucket.account(key), WINDOW_MS, ACCOUNT_FAILURES);
      if (accountSlot === null) throw lockedError(await untilFree(bucket.account(key), WINDOW_MS));
      const addressSlot = await throttle.take(bucket.address(req.ip), WINDOW_MS, ADDRESS_FAILURES);
      if (addressSlot === null) {
        await throttle.release(accountSlot);
        throw lockedError(await untilFree(bucket.address(req.ip), WINDOW_MS));
      }
      return track(req, { email: key, device: null, slots: [accountSlot, addressSlot], settled: false });
    },

    /** The secret was wrong: counts one failure (against the valid device token alone, else the account and the address). */
    failed,

    /**
     * The secret was right but the sign-in is not over (a second factor follows, or the account is
     * inactive): gives back the slots taken by `begin` without issuing a device token. Not in the shared
     * contract: an attempt left unsettled is settled by the status of the answer (see the hook above).
     */
    async passed(attempt: SignInAttempt): Promise<void> {
      await release(attempt);
    },

    /**
     * The whole sign-in succeeded (after the second factor, for users who have one): issues or renews the
     * device token of `userId` (cookie `deviceToken`) on the reply.
     */
    async succeeded(attempt: SignInAttempt, reply: FastifyReply, userId: number): Promise<void> {
      await release(attempt);
      let token: string;
      if (attempt.device) {
        await devices.renew(attempt.device.id);
        token = attempt.device.token;
      } else {
        token = await devices.issue(userId);
      }
      reply.header('set-cookie', deviceCookie(token, reply.request.protocol === 'https'));
    },
  };
}

export type SignInThrottle = ReturnType<typeof signInThrottle>;
