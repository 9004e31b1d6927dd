import { describe, expect, it } from 'vitest';
import { deviceCookie, lockedError, readCookie } from './signInThrottle.js';

describe('sign-in throttle helpers', () => {
  it('reads a cookie from a Cookie header without a package', () => {
    expect(readCookie('a=1; deviceToken=abc_DEF-123; b=2', 'deviceToken')).toBe('abc_DEF-123');
    expect(readCookie('deviceToken="quoted"', 'deviceToken')).toBe('quoted');
    expect(readCookie('xdeviceToken=no; deviceTokenx=no', 'deviceToken')).toBeUndefined();
    expect(readCookie('deviceToken=%E0%A4%A', 'deviceToken')).toBeUndefined();
    expect(readCookie('garbage;;=;deviceToken', 'deviceToken')).toBeUndefined();
    expect(readCookie(undefined, 'deviceToken')).toBeUndefined();
  });

  it('writes the device cookie HttpOnly, SameSite=Strict on /api for a year, Secure only over TLS', () => {
    expect(deviceCookie('tok', false)).toBe('deviceToken=tok; Max-Age=31536000; Path=/api; HttpOnly; SameSite=Strict');
    expect(deviceCookie('tok', true)).toBe('deviceToken=tok; Max-Age=31536000; Path=/api; HttpOnly; SameSite=Strict; Secure');
  });

  it('answers 429 with Retry-After in whole seconds and the wait in whole minutes, rounded up', () => {
    const one = lockedError(30_500);
    expect([one.statusCode, one.key, one.headers]).toEqual([429, 'auth.lockedOne', { 'retry-after': '31' }]);
    const many = lockedError(11 * 60_000 + 1);
    expect([many.key, many.params, many.headers]).toEqual(['auth.lockedMany', { minutes: 12 }, { 'retry-after': '661' }]);
    expect(lockedError(-5).headers).toEqual({ 'retry-after': '1' });
  });
});
