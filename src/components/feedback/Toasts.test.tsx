import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { AdminContext, useNotify } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { useEffect } from 'react';
import { Toasts, TOAST_DURATION } from './Toasts';
import { feedbackBus } from './bus';
import { ErrorBanner, useErrorBanner, BANNER_DURATION } from './ErrorBanner';
import { toHttpError } from '../../api/http';

const i18n = polyglotI18nProvider(() => ({ hello: 'Ciao %{name}', 'ra.action.undo': 'Annulla', 'ra.action.close': 'Chiudi' }) as any, 'it', [], {
  allowMissing: true,
});

function Notifier({ messages }: { messages: Array<[string, object?]> }) {
  const notify = useNotify();
  useEffect(() => {
    for (const [m, o] of messages) notify(m, o as any);
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  return null;
}

const renderToasts = (messages: Array<[string, object?]> = [], limit?: number) =>
  render(
    <AdminContext i18nProvider={i18n}>
      <Notifier messages={messages} />
      <Toasts limit={limit} />
    </AdminContext>,
  );
const toasts = () => screen.queryAllByTestId('toast');
const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });

afterEach(cleanup);

describe('toasts', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: false }));
  afterEach(() => vi.useRealTimers());

  it('shows notify() translated, and closes after 5000 ms', async () => {
    renderToasts([['hello', { type: 'success', messageArgs: { name: 'Anna' } }]]);
    await act(async () => {});
    expect(toasts()).toHaveLength(1);
    expect(toasts()[0]).toHaveTextContent('Ciao Anna');
    expect(toasts()[0]).toHaveAttribute('data-type', 'success');
    advance(TOAST_DURATION - 10);
    expect(toasts()).toHaveLength(1);
    advance(20);
    expect(toasts()).toHaveLength(0);
  });

  it('pauses while hovered and while the window has lost focus', async () => {
    renderToasts([['one', { type: 'info' }]]);
    await act(async () => {});
    advance(3000);
    fireEvent.mouseEnter(toasts()[0]);
    advance(10_000);
    expect(toasts()).toHaveLength(1);
    fireEvent.mouseLeave(toasts()[0]);
    advance(1900);
    expect(toasts()).toHaveLength(1);
    act(() => {
      window.dispatchEvent(new Event('blur'));
    });
    advance(10_000);
    expect(toasts()).toHaveLength(1);
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    advance(150);
    expect(toasts()).toHaveLength(0);
  });

  it('closes on a click, and on a sideways drag past 80% of its width only', async () => {
    renderToasts([
      ['a', { type: 'info' }],
      ['b', { type: 'info' }],
    ]);
    await act(async () => {});
    const [a] = toasts();
    fireEvent.pointerDown(a, { clientX: 100, pointerId: 1 });
    fireEvent.pointerUp(a, { clientX: 100, pointerId: 1 });
    expect(toasts()).toHaveLength(1);
    const b = toasts()[0];
    vi.spyOn(b, 'getBoundingClientRect').mockReturnValue({ width: 300 } as DOMRect);
    fireEvent.pointerDown(b, { clientX: 100, pointerId: 1 });
    fireEvent.pointerMove(b, { clientX: 300, pointerId: 1 });
    fireEvent.pointerUp(b, { clientX: 300, pointerId: 1 }); // 200 px of 300: 67%, springs back
    expect(toasts()).toHaveLength(1);
    fireEvent.pointerDown(b, { clientX: 100, pointerId: 1 });
    fireEvent.pointerMove(b, { clientX: 350, pointerId: 1 });
    fireEvent.pointerUp(b, { clientX: 350, pointerId: 1 }); // 250 px: 83%
    expect(toasts()).toHaveLength(0);
  });

  it('shows at most the limit at once; the others wait their turn', async () => {
    renderToasts([['1'], ['2'], ['3'], ['4'], ['5']], 3);
    await act(async () => {});
    expect(toasts().map((t) => t.textContent)).toEqual(['1', '2', '3']);
    fireEvent.click(screen.getAllByTitle('Chiudi')[0]);
    expect(toasts().map((t) => t.textContent)).toEqual(['2', '3', '4']);
  });

  it('shows bus messages (server success, field errors) and drops react-admin’s generic text after a server message', async () => {
    function Later() {
      const notify = useNotify();
      return <button onClick={() => notify('ra.notification.created', { type: 'info', messageArgs: { smart_count: 1 } })}>generic</button>;
    }
    render(
      <AdminContext i18nProvider={i18n}>
        <Later />
        <Toasts />
      </AdminContext>,
    );
    await act(async () => {});
    act(() => feedbackBus.emit({ type: 'success', message: 'Valuta creata con successo' }));
    fireEvent.click(screen.getByText('generic'));
    await act(async () => {});
    expect(toasts().map((t) => t.textContent)).toEqual(['Valuta creata con successo']);
    act(() => feedbackBus.emit({ type: 'error', message: 'Il campo nome è obbligatorio.' }));
    expect(toasts()[1]).toHaveTextContent('Il campo nome è obbligatorio.');
    expect(toasts()[1]).toHaveAttribute('data-type', 'error');
    // Without a server message just before, react-admin's own text shows.
    advance(TOAST_DURATION + 3000);
    fireEvent.click(screen.getByText('generic'));
    await act(async () => {});
    expect(toasts()).toHaveLength(1);
  });
});

function BannerHost({ error }: { error: unknown }) {
  const banner = useErrorBanner();
  return (
    <AdminContext i18nProvider={i18n}>
      <button onClick={() => banner.show(error)}>fail</button>
      <button onClick={() => banner.check({ status: false, message: 'Rifiutata' })}>refuse</button>
      <ErrorBanner messages={banner.messages} />
    </AdminContext>
  );
}

describe('error banner', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('collects the message and every field message, and hides after 5 s', async () => {
    render(<BannerHost error={toHttpError(422, { message: 'Dati non validi', errors: { name: ['Nome obbligatorio'], code_alpha: ['Codice già in uso'] } })} />);
    fireEvent.click(screen.getByText('fail'));
    const banner = screen.getByTestId('error-banner');
    expect([...banner.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['Dati non validi', 'Nome obbligatorio', 'Codice già in uso']);
    advance(BANNER_DURATION - 100);
    expect(screen.queryByTestId('error-banner')).not.toBeNull();
    advance(1000);
    advance(1000);
    expect(screen.queryByTestId('error-banner')).toBeNull();
  });

  it('shows a status:false answer’s message', () => {
    render(<BannerHost error={null} />);
    fireEvent.click(screen.getByText('refuse'));
    expect(screen.getByTestId('error-banner')).toHaveTextContent('Rifiutata');
  });
});
