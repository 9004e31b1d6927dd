import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { AdminContext, ListPaginationContext } from 'react-admin';
import { Pager } from './Pager';
import { buildI18nProvider } from '../../i18n';
import { componentMessages } from '../messages';

const { provider } = buildI18nProvider([componentMessages], 'it');

afterEach(cleanup);

const renderPager = (page: number, total: number, perPage = 10) => {
  const setPage = vi.fn();
  render(
    <AdminContext i18nProvider={provider}>
      <ListPaginationContext.Provider
        value={
          {
            page,
            perPage,
            total,
            setPage,
            setPerPage: vi.fn(),
            isLoading: false,
            isPending: false,
            hasNextPage: undefined,
            hasPreviousPage: undefined,
            resource: 'x',
          } as any
        }
      >
        <Pager />
      </ListPaginationContext.Provider>
    </AdminContext>,
  );
  return setPage;
};
const pages = () => screen.getAllByTestId('pager-page').map((b) => [Number(b.textContent), b.getAttribute('aria-current') === 'page'] as const);

describe('pager', () => {
  it('on the first page: itself and two neighbours; first and previous disabled', () => {
    const setPage = renderPager(1, 95);
    expect(pages()).toEqual([
      [1, true],
      [2, false],
      [3, false],
    ]);
    expect(screen.getByTestId('pager-first')).toBeDisabled();
    expect(screen.getByTestId('pager-previous')).toBeDisabled();
    fireEvent.click(screen.getByTestId('pager-last'));
    expect(setPage).toHaveBeenLastCalledWith(10);
    fireEvent.click(screen.getByTestId('pager-next'));
    expect(setPage).toHaveBeenLastCalledWith(2);
    fireEvent.click(screen.getAllByTestId('pager-page')[2]);
    expect(setPage).toHaveBeenLastCalledWith(3);
  });
  it('on the last page: next and last disabled', () => {
    const setPage = renderPager(10, 95);
    expect(pages()).toEqual([
      [8, false],
      [9, false],
      [10, true],
    ]);
    expect(screen.getByTestId('pager-next')).toBeDisabled();
    expect(screen.getByTestId('pager-last')).toBeDisabled();
    fireEvent.click(screen.getByTestId('pager-first'));
    expect(setPage).toHaveBeenLastCalledWith(1);
    expect(screen.getByTestId('pager-range').textContent).toBe('91-95 di 95');
    expect(screen.getByTestId('pager-first')).toHaveAttribute('aria-label', 'Prima pagina');
  });
  it('in the middle; nothing for an empty list', () => {
    renderPager(5, 95);
    expect(pages().map(([p]) => p)).toEqual([3, 4, 5, 6, 7]);
    cleanup();
    renderPager(1, 0);
    expect(screen.queryByTestId('pager')).toBeNull();
  });
});
