import { describe, expect, it } from 'vitest';
import { pagerPages } from './pages';

describe('pager pages: the current page and up to two neighbours each side', () => {
  it('in the middle', () => expect(pagerPages(5, 10)).toEqual([3, 4, 5, 6, 7]));
  it('at the first pages', () => {
    expect(pagerPages(1, 10)).toEqual([1, 2, 3]);
    expect(pagerPages(2, 10)).toEqual([1, 2, 3, 4]);
    expect(pagerPages(3, 10)).toEqual([1, 2, 3, 4, 5]);
  });
  it('at the last pages', () => {
    expect(pagerPages(10, 10)).toEqual([8, 9, 10]);
    expect(pagerPages(9, 10)).toEqual([7, 8, 9, 10]);
  });
  it('with few pages, and out-of-range input clamped', () => {
    expect(pagerPages(1, 1)).toEqual([1]);
    expect(pagerPages(2, 2)).toEqual([1, 2]);
    expect(pagerPages(1, 0)).toEqual([1]);
    expect(pagerPages(99, 4)).toEqual([2, 3, 4]);
    expect(pagerPages(-3, 4)).toEqual([1, 2, 3]);
  });
});
