import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { lazyScreen } from './lazyScreen';

afterEach(cleanup);

describe('lazyScreen', () => {
  it('shows the centred progress until the module arrives, then the named component with its props', async () => {
    let arrive!: (m: { Greeting: (p: { name: string }) => ReactElement }) => void;
    let loads = 0;
    const Greeting = lazyScreen(() => {
      loads++;
      return new Promise<{ Greeting: (p: { name: string }) => ReactElement }>((r) => {
        arrive = r;
      });
    }, 'Greeting');
    expect(loads).toBe(0); // nothing is fetched before the screen is shown
    render(<Greeting name="Ada" />);
    expect(screen.getByTestId('screen-loading')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toBeInTheDocument();
    arrive({ Greeting: ({ name }) => <h1>Ciao {name}</h1> });
    expect(await screen.findByRole('heading')).toHaveTextContent('Ciao Ada');
    expect(screen.queryByTestId('screen-loading')).toBeNull();
    cleanup();
    render(<Greeting name="Bea" />);
    expect(screen.getByRole('heading')).toHaveTextContent('Ciao Bea'); // loaded once, shown at once
    expect(loads).toBe(1);
  });

  it('preloaded, the screen renders at once, without the progress (a prerendered page: src/main.tsx)', async () => {
    let loads = 0;
    const Greeting = lazyScreen(async () => {
      loads++;
      return { Greeting: ({ name }: { name: string }) => <h1>Ciao {name}</h1> };
    }, 'Greeting');
    await Greeting.preload();
    render(<Greeting name="Ada" />);
    expect(screen.queryByTestId('screen-loading')).toBeNull();
    expect(screen.getByRole('heading')).toHaveTextContent('Ciao Ada');
    await Greeting.preload();
    expect(loads).toBe(1);
  });
});
