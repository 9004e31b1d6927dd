/** The pager's page numbers: the current page and up to two neighbours each side (accounts document §2). */
export function pagerPages(current: number, last: number, neighbours = 2): number[] {
  const lastPage = Math.max(1, Math.floor(last));
  const page = Math.min(Math.max(1, Math.floor(current)), lastPage);
  const out: number[] = [];
  for (let p = Math.max(1, page - neighbours); p <= Math.min(lastPage, page + neighbours); p++) out.push(p);
  return out;
}
