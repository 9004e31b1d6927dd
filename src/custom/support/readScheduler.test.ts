import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readScheduler } from './readScheduler';

describe('readScheduler (the open conversation’s next read)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps a read asked for now when a read ends before it starts and the stream is open', () => {
    const read = vi.fn();
    const s = readScheduler(read);
    s.soon(); // a live event: the other side read the messages
    s.later(null); // the read under way then ends: no periodic read while the stream is open
    vi.advanceTimersByTime(0);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('keeps a read asked for now when a failed read asks to retry later', () => {
    const read = vi.fn();
    const s = readScheduler(read);
    s.soon();
    s.later(4000);
    vi.advanceTimersByTime(0);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('reads periodically while the stream is down, and not at all once it is open', () => {
    const read = vi.fn();
    const s = readScheduler(read);
    s.later(2000);
    vi.advanceTimersByTime(1999);
    expect(read).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(read).toHaveBeenCalledTimes(1);
    s.later(2000);
    s.later(null);
    vi.advanceTimersByTime(10_000);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('a read asked for now replaces a periodic one, and reads once', () => {
    const read = vi.fn();
    const s = readScheduler(read);
    s.later(2000);
    s.soon();
    s.soon();
    vi.advanceTimersByTime(5000);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('reads nothing after cancel', () => {
    const read = vi.fn();
    const s = readScheduler(read);
    s.soon();
    s.cancel();
    vi.advanceTimersByTime(5000);
    expect(read).not.toHaveBeenCalled();
  });
});
