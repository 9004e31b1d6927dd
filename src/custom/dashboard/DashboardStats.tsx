import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { usePermissions, useTranslate } from 'react-admin';
import { Box, Button, Paper, Skeleton, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import TodayIcon from '@mui/icons-material/Today';
import HourglassIcon from '@mui/icons-material/HourglassTop';
import ListAltIcon from '@mui/icons-material/ListAlt';
import EuroIcon from '@mui/icons-material/Euro';
import EventNoteIcon from '@mui/icons-material/EventNote';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import { useFormat } from '../../components/format';
import { ListErrorBlock } from '../../components/feedback/ErrorBlock';
import type { Kind } from '../../../model/roles';
import { usePortalData, type TransportRequest } from '../transportRequests/api';
import { StatusChip, requesterOf, routeOf, useServiceLabel } from '../transportRequests/parts';
import { MonthlyChart } from './MonthlyChart';
import { NOWRAP_WIDE, PHONE_COMPACT, WIDE_ONLY } from '../../components/table/stickyActions';

function StatCard({ label, value, sub, icon, testId }: { label: string; value: string; sub?: string; icon: React.ReactNode; testId: string }) {
  return (
    <Paper sx={{ p: 2, display: 'flex', gap: 2, alignItems: 'center', minWidth: 0 }} data-testid={testId}>
      <Box sx={{ bgcolor: 'primary.main', color: 'primary.contrastText', borderRadius: 2, p: 1.2, display: 'flex' }}>{icon}</Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h5" component="div" sx={{ fontWeight: 700 }} data-testid={`${testId}-value`}>
          {value}
        </Typography>
        {sub && (
          <Typography variant="caption" color="text.secondary">
            {sub}
          </Typography>
        )}
      </Box>
    </Paper>
  );
}

function RequestsTable({ rows, kind, title }: { rows: TransportRequest[]; kind: Kind; title: string }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { money, date } = useFormat();
  const service = useServiceLabel();
  return (
    <Paper sx={{ p: 2, minWidth: 0 }} data-testid="dashboard-table">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        <Button component={RouterLink} to="/transport-requests-visuals" size="small">
          {translate('dashboard.all_requests')}
        </Button>
      </Box>
      {rows.length === 0 ? (
        <Typography color="text.secondary" sx={{ py: 2 }}>
          {translate('dashboard.no_requests')}
        </Typography>
      ) : (
        <Box sx={{ overflowX: 'auto' }}>
          {/* Narrower cells and a route that may wrap on a phone: number, route, total and status fit its width. */}
          <Table size="small" sx={PHONE_COMPACT}>
            <TableHead>
              <TableRow>
                <TableCell>{translate('requests.col_id')}</TableCell>
                <TableCell sx={WIDE_ONLY}>{translate('requests.col_date')}</TableCell>
                {kind !== 'enduser' && <TableCell sx={WIDE_ONLY}>{translate('requests.col_client')}</TableCell>}
                <TableCell>{translate('requests.col_route')}</TableCell>
                <TableCell sx={WIDE_ONLY}>{translate('requests.col_type')}</TableCell>
                <TableCell align="right">{translate('requests.col_total')}</TableCell>
                <TableCell>{translate('requests.col_status')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((r) => (
                <TableRow
                  key={r.id}
                  hover
                  sx={{ cursor: 'pointer' }}
                  onClick={() => navigate(`/transport-requests-visuals/${r.id}/1`)}
                  data-testid={`dashboard-row-${r.id}`}
                >
                  <TableCell>{r.id}</TableCell>
                  <TableCell sx={WIDE_ONLY}>{date(r.created_at)}</TableCell>
                  {kind !== 'enduser' && <TableCell sx={WIDE_ONLY}>{requesterOf(r)}</TableCell>}
                  <TableCell sx={NOWRAP_WIDE}>{routeOf(r)}</TableCell>
                  <TableCell sx={WIDE_ONLY}>{service(r)}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {r.total === null ? translate('requests.to_be_quoted') : money(r.total)}
                  </TableCell>
                  <TableCell>
                    <StatusChip status={r.transport_request_status_id} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Paper>
  );
}

/**
 * The dashboard's figures (accounts document §2, server.md §6): six cards, the admin's ten dearest
 * requests of the year or the carrier's and end user's five most recent, and the months of this year.
 * Cached 20 s like the server (calculator document §9).
 */
export function DashboardStats() {
  const translate = useTranslate();
  const { permissions: kind } = usePermissions<Kind>();
  const { money } = useFormat();
  const enabled = kind === 'admin' || kind === 'carrier' || kind === 'enduser';
  const dataProvider = usePortalData();
  const q = useQuery({ queryKey: ['statistics', kind], queryFn: () => dataProvider.statistics(kind!), enabled, staleTime: 20_000 });
  if (!enabled) return null;
  if (q.error)
    return (
      <Box sx={{ mt: 2 }}>
        <ListErrorBlock error={q.error} />
      </Box>
    );
  const s = q.data;
  const grid = { display: 'grid', gap: 2, mt: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' } } as const;
  if (!s)
    return (
      <Box sx={grid}>
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} variant="rounded" height={92} />
        ))}
      </Box>
    );
  const year = s.date.slice(0, 4);
  return (
    <Box data-testid="dashboard-stats" sx={{ minWidth: 0 }}>
      <Box sx={grid}>
        <StatCard testId="stat-daily_total" label={translate('dashboard.daily_total')} value={money(s.daily_total)} icon={<TodayIcon />} />
        <StatCard
          testId="stat-open_total"
          label={translate('dashboard.open_total')}
          value={money(s.open_total)}
          sub={translate('dashboard.open_count', { smart_count: s.open_requests })}
          icon={<HourglassIcon />}
        />
        <StatCard testId="stat-mtd_requests" label={translate('dashboard.mtd_requests')} value={String(s.mtd_requests)} icon={<ListAltIcon />} />
        <StatCard testId="stat-mtd_total" label={translate('dashboard.mtd_total')} value={money(s.mtd_total)} icon={<EuroIcon />} />
        <StatCard testId="stat-ytd_requests" label={translate('dashboard.ytd_requests')} value={String(s.ytd_requests)} icon={<EventNoteIcon />} />
        <StatCard testId="stat-ytd_total" label={translate('dashboard.ytd_total')} value={money(s.ytd_total)} icon={<TrendingUpIcon />} />
      </Box>
      <Box sx={{ display: 'grid', gap: 2, mt: 2 }}>
        <RequestsTable
          rows={kind === 'admin' ? (s.get10TopRequests ?? []) : s.fiveMostRecentRequests}
          kind={kind!}
          title={kind === 'admin' ? translate('dashboard.top10', { year }) : translate('dashboard.recent5')}
        />
        <Paper sx={{ p: 2, minWidth: 0 }}>
          <MonthlyChart points={s.getYTDRequests} year={year} />
        </Paper>
      </Box>
    </Box>
  );
}
