import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Box, Chip, Paper, Typography, type ChipProps } from '@mui/material';
import type { TransportRequest } from './api';
import { useFormat } from '../../components/format';
import { formatNumber } from '../calculator/numbers';

/** Status colours: open blue, confirmed green, refused red, in transit amber, delivered dark green, cancelled grey. */
const COLORS: Record<number, ChipProps['color']> = { 1: 'info', 3: 'success', 4: 'error', 5: 'warning', 6: 'success', 7: 'default' };

export function StatusChip({ status, size = 'small' }: { status: number; size?: ChipProps['size'] }) {
  const translate = useTranslate();
  return (
    <Chip
      size={size}
      color={COLORS[status] ?? 'default'}
      variant={status === 6 ? 'filled' : 'outlined'}
      label={translate(`requests.statuses.${status}`)}
      data-testid="request-status"
      data-status={status}
    />
  );
}

/** "Bologna → Roma" from the first shipment (its places), with a count when there are several. */
export function routeOf(r: TransportRequest): string {
  const s = r.shipment[0];
  if (!s) return '';
  const place = (a: TransportRequest['shipment'][number]['shipment_addess_pick_up']) => (a ? a.city || a.postal_code : '?');
  const more = r.shipment.length > 1 ? ` (+${r.shipment.length - 1})` : '';
  // The arrow keeps to its origin (a no-break space): a narrow cell wraps "Bologna →" / "Napoli", never a lone arrow.
  return `${place(s.shipment_addess_pick_up)}\u00a0→ ${place(s.shipment_address_delivery)}${more}`;
}

/** The service as people say it: "Express GOLD", "Standard", or "Inserita a mano" for a request made without a quote. */
export function useServiceLabel() {
  const translate = useTranslate();
  return (r: TransportRequest) => {
    if (r.quote?.service === 'palletExpress') return `${translate('requests.express')} ${r.transport_class?.name ?? ''}`.trim();
    if (r.quote?.service === 'standard') return translate('requests.standard');
    return translate('requests.manual');
  };
}

/** Who asked: the end-user company, or the visitor's company and name. */
export const requesterOf = (r: TransportRequest) =>
  r.enduser?.legal_name ?? ([r.visitor_company, [r.firstname, r.lastname].filter(Boolean).join(' ')].filter(Boolean).join(' · ') || '—');

export function Section({ title, children, testId, action }: { title: ReactNode; children: ReactNode; testId?: string; action?: ReactNode }) {
  return (
    <Paper sx={{ p: { xs: 2, md: 3 }, mb: 2 }} data-testid={testId}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 2 }}>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Paper>
  );
}

/** A label over a value, for read-only blocks. */
export function Field({ label, children, testId }: { label: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography variant="body2" component="div" data-testid={testId} sx={{ overflowWrap: 'anywhere' }}>
        {children === null || children === undefined || children === '' ? '—' : children}
      </Typography>
    </Box>
  );
}

/** A figure card: price, admin fees, total, lead time. */
export function FigureCard({ label, value, testId, strong }: { label: ReactNode; value: ReactNode; testId?: string; strong?: boolean }) {
  return (
    <Paper
      variant="outlined"
      sx={{ p: 1.5, flex: '1 1 150px', bgcolor: strong ? 'primary.main' : undefined, color: strong ? 'primary.contrastText' : undefined }}
    >
      <Typography variant="caption" component="div" sx={{ opacity: 0.85 }}>
        {label}
      </Typography>
      <Typography variant="h6" component="div" data-testid={testId} sx={{ fontWeight: 700 }}>
        {value}
      </Typography>
    </Paper>
  );
}

/** The goods of a shipment in one line: "Pallet 1: 250 kg, 120×80×90 cm (p300)" or "33 colli, 18500 kg, 0 FTL". */
export function useGoodsSummary() {
  const translate = useTranslate();
  const { locale } = useFormat();
  const n = (v: number | string | null | undefined) => formatNumber(v, locale);
  return (s: TransportRequest['shipment'][number]) =>
    s.shipment_detail
      .map((d, i) =>
        d.shipment_type_id === 1
          ? `${translate('requests.pallet_n', { n: i + 1 })}: ${n(d.pallet_weight)} kg, ${n(d.pallet_width)}×${n(d.pallet_length)}×${n(d.pallet_height)} cm${d.pallet_type ? ` (${d.pallet_type})` : ''}`
          : `${translate('requests.units')}: ${n(d.total_units)} · ${n(d.gross_weight)} kg · ${translate('requests.volume')} ${n(d.volume)} ${d.volume_type ?? ''}`,
      )
      .join(' — ');
}
