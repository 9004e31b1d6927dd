import { useTranslate } from 'react-admin';
import { Box, Typography, useTheme } from '@mui/material';
import { useFormat } from '../../components/format';

export interface MonthPoint {
  month: string;
  requests: number;
  total: number;
}

/** A rounded axis top: 1, 2 or 5 times a power of ten, at least the largest value. */
function niceMax(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((m) => m * p).find((x) => x >= v)!;
}

/**
 * Requests and their value per month this year (issue 9), in plain SVG: a bar per month for the value
 * (left axis, euros), the number of requests written above it. Each bar has a title for screen readers.
 */
export function MonthlyChart({ points, year }: { points: MonthPoint[]; year: string }) {
  const translate = useTranslate();
  const theme = useTheme();
  const { money } = useFormat();
  const names = translate('dashboard.months').split('|');
  const W = 720;
  const H = 260;
  const left = 84;
  const bottom = 28;
  const top = 24;
  const max = niceMax(Math.max(0, ...points.map((p) => p.total)));
  const slot = (W - left - 8) / 12;
  const y = (v: number) => top + (H - top - bottom) * (1 - v / max);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * max);
  const compact = (v: number) => money(v).replace(/[,.]00(?=\D*$)/, '');
  return (
    <Box data-testid="monthly-chart">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {translate('dashboard.chart', { year })}
      </Typography>
      <Box
        component="svg"
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={translate('dashboard.chart', { year })}
        sx={{ width: '100%', maxWidth: 900, height: 'auto', display: 'block', mx: 'auto' }}
      >
        {ticks.map((t) => (
          <g key={t}>
            <line x1={left} x2={W - 8} y1={y(t)} y2={y(t)} stroke={theme.palette.divider} />
            <text x={left - 8} y={y(t) + 4} textAnchor="end" fontSize="11" fill={theme.palette.text.secondary}>
              {compact(t)}
            </text>
          </g>
        ))}
        {names.map((name, i) => {
          const p = points[i];
          const x = left + i * slot + slot * 0.2;
          const w = slot * 0.6;
          return (
            <g key={name} data-testid={p ? `chart-month-${i + 1}` : undefined} data-requests={p?.requests} data-total={p?.total}>
              {p && (
                <>
                  <rect x={x} y={y(p.total)} width={w} height={Math.max(0, H - bottom - y(p.total))} rx={3} fill={theme.palette.primary.main}>
                    <title>{`${name}: ${translate('dashboard.chart_requests')} ${p.requests}, ${translate('dashboard.chart_value')} ${money(p.total)}`}</title>
                  </rect>
                  <text x={x + w / 2} y={y(p.total) - 6} textAnchor="middle" fontSize="12" fontWeight="600" fill={theme.palette.secondary.dark}>
                    {p.requests}
                  </text>
                </>
              )}
              <text x={x + w / 2} y={H - 8} textAnchor="middle" fontSize="11" fill={p ? theme.palette.text.primary : theme.palette.text.disabled}>
                {name}
              </text>
            </g>
          );
        })}
      </Box>
      <Box sx={{ display: 'flex', gap: 3, mt: 1, color: 'text.secondary', fontSize: 13 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Box sx={{ width: 12, height: 12, bgcolor: 'primary.main', borderRadius: 0.5 }} />
          {translate('dashboard.chart_value')}
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Box component="span" sx={{ color: 'secondary.dark', fontWeight: 700 }}>
            n
          </Box>
          {translate('dashboard.chart_requests')}
        </Box>
      </Box>
    </Box>
  );
}
