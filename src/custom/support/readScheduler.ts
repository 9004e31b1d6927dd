/**
 * When the open conversation reads next (hooks.ts, `useConversation`): now (`soon`: a live event, a poke, more
 * messages than one answer holds) or after a pause (`later`: the periodic read while the stream is down, the retry
 * after a failure).
 *
 * A read asked for now and not yet started is never pushed back or cancelled by what comes after it. Before, a
 * read that ended between a live event and the read that event asked for cancelled the latter ("no periodic read
 * while the stream is open"): the change the event announced — the other side's read marks, a message — then
 * waited for the next event. support.test.ts's read mark missed its 4 s once that way under the suite's load.
 */
export interface ReadScheduler {
  /** A read as soon as possible. */
  soon(): void;
  /** The next read after `ms`, or none (`null`: the stream is open, its events ask); a read due now stays due. */
  later(ms: number | null): void;
  /** Nothing more (the conversation closed). */
  cancel(): void;
}

export function readScheduler(read: () => void): ReadScheduler {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let dueNow = false;
  const stop = () => {
    clearTimeout(timer);
    timer = undefined;
    dueNow = false;
  };
  const at = (ms: number) => {
    stop();
    dueNow = ms === 0;
    timer = setTimeout(() => {
      timer = undefined;
      dueNow = false;
      read();
    }, ms);
  };
  return {
    soon: () => at(0),
    later: (ms) => {
      if (dueNow) return;
      if (ms === null) stop();
      else at(ms);
    },
    cancel: stop,
  };
}
