import { useListPaginationContext, useTranslate } from 'react-admin';
import { Box, IconButton, Tooltip, Typography } from '@mui/material';
import FirstPageIcon from '@mui/icons-material/FirstPage';
import LastPageIcon from '@mui/icons-material/LastPage';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { pagerPages } from './pages';

/**
 * The shared table's pager: first, previous, the current page with up to two neighbours each side,
 * next, last, and the range shown. Replaces react-admin's pagination on every list (theme: RaList).
 */
export function Pager() {
  const { page, perPage, total, setPage, isPending } = useListPaginationContext();
  const translate = useTranslate();
  if (isPending || !total) return null;
  const last = Math.max(1, Math.ceil(total / perPage));
  const go = (p: number) => () => setPage(Math.min(Math.max(1, p), last));
  const from = (page - 1) * perPage + 1;
  const to = Math.min(total, page * perPage);
  const nav = (label: string, target: number, disabled: boolean, icon: React.ReactNode, testid: string) => (
    <Tooltip title={label}>
      <span>
        <IconButton size="small" onClick={go(target)} disabled={disabled} aria-label={label} data-testid={testid}>
          {icon}
        </IconButton>
      </span>
    </Tooltip>
  );
  return (
    <Box
      component="nav"
      aria-label={translate('portal.pager.label')}
      data-testid="pager"
      sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', flexWrap: 'wrap', gap: 0.5, px: 2, py: 1 }}
    >
      <Typography variant="body2" color="text.secondary" sx={{ mr: 2 }} data-testid="pager-range">
        {translate('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total })}
      </Typography>
      {nav(translate('portal.pager.first'), 1, page <= 1, <FirstPageIcon />, 'pager-first')}
      {nav(translate('ra.navigation.previous'), page - 1, page <= 1, <ChevronLeftIcon />, 'pager-previous')}
      {pagerPages(page, last).map((p) => (
        <IconButton
          key={p}
          size="small"
          onClick={go(p)}
          aria-label={translate('portal.pager.page', { page: p })}
          aria-current={p === page ? 'page' : undefined}
          data-testid="pager-page"
          sx={{
            minWidth: 34,
            height: 34,
            borderRadius: 1,
            fontSize: 14,
            ...(p === page ? { bgcolor: 'primary.main', color: 'primary.contrastText', '&:hover': { bgcolor: 'primary.dark' } } : {}),
          }}
        >
          {p}
        </IconButton>
      ))}
      {nav(translate('ra.navigation.next'), page + 1, page >= last, <ChevronRightIcon />, 'pager-next')}
      {nav(translate('portal.pager.last'), last, page >= last, <LastPageIcon />, 'pager-last')}
    </Box>
  );
}
