import { useNavigate, useParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { Loading, Title, useLocaleState, useNotify, usePermissions, useTranslate } from 'react-admin';
import {
  Alert,
  Box,
  Button,
  List,
  ListItem,
  ListItemText,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DownloadIcon from '@mui/icons-material/Download';
import EditIcon from '@mui/icons-material/Edit';
import CheckIcon from '@mui/icons-material/CheckCircleOutline';
import CloseIcon from '@mui/icons-material/HighlightOff';
import { useFormat } from '../../components/format';
import { formatNumber } from '../calculator/numbers';
import { ListErrorBlock } from '../../components/feedback/ErrorBlock';
import { normalizeError } from '../../components/feedback/errors';
import { saveBlob } from '../../components/download';
import { ActivitySection } from '../../components/audit/ActivitySection';
import type { Kind } from '../../../model/roles';
import { usePortalData, type Address, type Shipment, type TransportRequest } from './api';
import { Field, Section, StatusChip, requesterOf, useServiceLabel } from './parts';
import { CONFIRM, REFUSE, isOpen, useStatusAction } from './statusActions';
import { Timeline } from './Timeline';
import { ProgressActions, nextStep } from './ProgressActions';
import { PodCard } from './PodCard';
import { LabelsButton } from './LabelsButton';
import { EnduserRequestActions, RequestTickets } from './EnduserRequestActions';
import { PHONE_COMPACT } from '../../components/table/stickyActions';
import { phoneColumnLabels, stackedOnPhone } from '../../components/table/PhoneCards';

/** The statuses from which the transport document exists: confirmed, in transit, delivered. */
const WAYBILL_STATUSES = [3, 5, 6];

const grid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' } } as const;

function PlaceBlock({
  title,
  a,
  date,
  from,
  to,
  notes,
}: {
  title: string;
  a: Address | null;
  date: string | null;
  from: string | null;
  to: string | null;
  notes: string | null;
}) {
  const translate = useTranslate();
  const { date: fmt } = useFormat();
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="subtitle2" color="primary" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Box sx={{ display: 'grid', gap: 1 }}>
        <Field label={translate('requests.date')}>{date ? `${fmt(date)}${from ? `, ${from}–${to ?? ''}` : ''}` : null}</Field>
        <Field label={translate('requests.location_name')}>{a?.location_name}</Field>
        <Field label={translate('requests.address')}>
          {a ? `${a.address}, ${a.postal_code} ${a.city ?? ''}${a.province ? ` (${a.province})` : ''}` : null}
        </Field>
        <Field label={translate('requests.country')}>{a?.country?.name ?? a?.country?.en}</Field>
        <Field label={translate('requests.notes')}>{notes}</Field>
      </Box>
    </Paper>
  );
}

function ShipmentCard({ s, n }: { s: Shipment; n: number }) {
  const translate = useTranslate();
  const { locale } = useFormat();
  const num = (v: number | string | null | undefined) => formatNumber(v, locale);
  const pallets = s.shipment_detail.filter((d) => d.shipment_type_id === 1);
  const units = s.shipment_detail.filter((d) => d.shipment_type_id === 2);
  return (
    <Section
      title={`${translate('requests.shipment_n', { n })} · ${s.transport_request_type_id === 1 ? translate('requests.express') : translate('requests.standard')}${s.transport_class && s.transport_class.name !== 'STANDARD' ? ` ${s.transport_class.name}` : ''}`}
      testId={`shipment-card-${n}`}
    >
      <Box sx={{ ...grid, mb: 2 }}>
        <Field label={translate('requests.shipper_reference')}>{s.shipper_reference}</Field>
        <Field label={translate('requests.consignee_reference')}>{s.consignee_reference}</Field>
        {s.consignee_email && <Field label={translate('requests.consignee_email')}>{s.consignee_email}</Field>}
        <Field label={translate('requests.adr')}>{translate(s.adr ? 'ra.boolean.true' : 'ra.boolean.false')}</Field>
        <Field label={translate('requests.tail_lift')}>{translate(s.tail_lift ? 'ra.boolean.true' : 'ra.boolean.false')}</Field>
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, mb: 2 }}>
        <PlaceBlock
          title={translate('requests.pickup')}
          a={s.shipment_addess_pick_up}
          date={s.pickup_date}
          from={s.pickup_time_from}
          to={s.pickup_time_to}
          notes={s.pickup_notes}
        />
        <PlaceBlock
          title={translate('requests.delivery')}
          a={s.shipment_address_delivery}
          date={s.delivery_date}
          from={s.delivery_time_from}
          to={s.delivery_time_to}
          notes={s.delivery_notes}
        />
      </Box>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {translate('requests.goods')}
      </Typography>
      <Box sx={{ overflowX: 'auto' }}>
        {pallets.length > 0 && (
          // Cards on a phone (PhoneCards.tsx): the six columns cut "Misure" at 390 px.
          <Table
            size="small"
            sx={[
              PHONE_COMPACT,
              stackedOnPhone,
              phoneColumnLabels(
                ['#', 'requests.weight_kg', 'requests.width_cm', 'requests.length_cm', 'requests.height_cm', 'requests.band'].map((k) =>
                  k === '#' ? k : translate(k),
                ),
                { title: false },
              ),
            ]}
          >
            <TableHead>
              <TableRow>
                <TableCell>#</TableCell>
                <TableCell align="right">{translate('requests.weight_kg')}</TableCell>
                <TableCell align="right">{translate('requests.width_cm')}</TableCell>
                <TableCell align="right">{translate('requests.length_cm')}</TableCell>
                <TableCell align="right">{translate('requests.height_cm')}</TableCell>
                <TableCell>{translate('requests.band')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {pallets.map((p, i) => (
                <TableRow key={p.id}>
                  <TableCell>{i + 1}</TableCell>
                  <TableCell align="right">{num(p.pallet_weight)}</TableCell>
                  <TableCell align="right">{num(p.pallet_width)}</TableCell>
                  <TableCell align="right">{num(p.pallet_length)}</TableCell>
                  <TableCell align="right">{num(p.pallet_height)}</TableCell>
                  <TableCell>{p.pallet_type}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {units.length > 0 && (
          <Table
            size="small"
            sx={[
              PHONE_COMPACT,
              stackedOnPhone,
              phoneColumnLabels(
                ['requests.volume_type', 'requests.units', 'requests.weight', 'requests.volume'].map((k) => translate(k)),
                { title: false },
              ),
            ]}
          >
            <TableHead>
              <TableRow>
                <TableCell>{translate('requests.volume_type')}</TableCell>
                <TableCell align="right">{translate('requests.units')}</TableCell>
                <TableCell align="right">{translate('requests.weight')}</TableCell>
                <TableCell align="right">{translate('requests.volume')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {units.map((u) => (
                <TableRow key={u.id}>
                  <TableCell>{u.volume_type ? translate(`requests.volume_types.${u.volume_type}`, { _: u.volume_type }) : '—'}</TableCell>
                  <TableCell align="right">{num(u.total_units)}</TableCell>
                  <TableCell align="right">{num(u.gross_weight)}</TableCell>
                  <TableCell align="right">{num(u.volume)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Box>
    </Section>
  );
}

/** The header card: number, date, status, requester, carrier, service, price, admin fees, total, lead time. */
function Header({ r, kind }: { r: TransportRequest; kind: Kind }) {
  const translate = useTranslate();
  const { money, dateTime } = useFormat();
  const [locale = 'it'] = useLocaleState();
  const service = useServiceLabel();
  const quoted = (v: number | null) => (v === null ? translate('requests.to_be_quoted') : money(v));
  return (
    <Section
      title={translate('requests.title_detail', { id: r.id })}
      testId="request-header"
      action={<StatusChip status={r.transport_request_status_id} size="medium" />}
    >
      <Box sx={grid}>
        <Field label={translate('requests.created_at')}>{dateTime(r.created_at)}</Field>
        <Field label={translate('requests.requester')}>{requesterOf(r)}</Field>
        {kind !== 'carrier' && <Field label={translate('requests.carrier')}>{r.carrier.legal_name}</Field>}
        <Field label={translate('requests.col_type')}>{service(r)}</Field>
        <Field label={translate('requests.price')} testId="detail-price">
          {quoted(r.cost)}
        </Field>
        <Field label={translate('requests.admin_fees')}>{quoted(r.admin_fees)}</Field>
        <Field label={translate('requests.total')} testId="detail-total">
          {r.total === null ? translate('requests.to_be_quoted') : money(r.total)}
        </Field>
        {r.picked_up_at && (
          <Field label={translate('progress.picked_up_on')} testId="detail-picked-up-at-value">
            {dateTime(r.picked_up_at)}
          </Field>
        )}
        <Field label={translate('requests.lead_time')}>{r.lead_time === null ? null : translate('requests.days', { smart_count: r.lead_time })}</Field>
        {r.fuel && (
          <Field label={translate('requests.fuel')} testId="detail-fuel">
            {translate('requests.fuel_value', fuelText(r.fuel, locale))}
          </Field>
        )}
        {r.email && <Field label={translate('requests.contact')}>{[r.email, r.phone].filter(Boolean).join(' · ')}</Field>}
        {r.contact && <Field label={translate('requests.contact')}>{r.contact}</Field>}
        {r.reason && <Field label={translate('requests.reason')}>{r.reason}</Field>}
      </Box>
    </Section>
  );
}

/** The stored fuel of a request in words: month "novembre 2026", percent "2,5" (pricing.md §7). */
function fuelText(fuel: { month: string; percent: string }, locale: string) {
  const [y, m] = fuel.month.split('-').map(Number);
  const month =
    Number.isFinite(y) && Number.isFinite(m)
      ? new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y!, m! - 1, 1)))
      : fuel.month;
  return { month, percent: new Intl.NumberFormat(locale, { maximumFractionDigits: 4 }).format(Number(fuel.percent)) };
}

/** /transport-requests-visuals/{id}/{page} (calculator document §2): the request's cards; a carrier's actions on open requests. */
export function RequestDetail() {
  const { id = '', page = '1' } = useParams();
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const { permissions: kind } = usePermissions<Kind>();
  const dataProvider = usePortalData();
  const q = useQuery({ queryKey: ['transport_request', kind, id], queryFn: () => dataProvider.showRequest(kind!, id), enabled: !!kind });
  const back = () => navigate(`/transport-requests-visuals?page=${encodeURIComponent(page)}`);
  // Issue 35: after confirming or refusing, the carrier stays on the request, which shows its new status and
  // (confirmed) its waybill; a failure reads it again too (someone else may have changed it).
  const { ask, dialog } = useStatusAction(() => q.refetch());
  const phone = useMediaQuery<Theme>((t) => t.breakpoints.down('sm'));
  if (!kind || q.isPending) return <Loading />;
  if (q.error) return <ListErrorBlock error={q.error} />;
  const r = q.data;
  const carrierOpen = kind === 'carrier' && isOpen(r);
  // Issue 36 item 1: the carrier's next step (picked up, delivered). On a phone it is a full-width bar stuck to
  // the bottom of the screen (under the thumb wherever the page is scrolled); on a desktop a button in the top row.
  const step = nextStep(r, kind);
  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto' }} data-testid="request-detail">
      <Title title={translate('requests.title_detail', { id: r.id })} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <Button startIcon={<ArrowBackIcon />} onClick={back} data-testid="detail-back">
          {translate('requests.back')}
        </Button>
        <Box sx={{ flex: 1 }} />
        {(carrierOpen || kind === 'admin') && (
          <Button startIcon={<EditIcon />} variant="outlined" onClick={() => navigate(`/edit-transport-requests/${r.id}/${page}`)} data-testid="detail-edit">
            {translate('requests.edit')}
          </Button>
        )}
        {carrierOpen && !r.to_be_quoted && (
          <Button startIcon={<CheckIcon />} variant="contained" color="success" onClick={() => ask(r, CONFIRM)} data-testid="detail-confirm">
            {translate('requests.confirm')}
          </Button>
        )}
        {step && !phone && <ProgressActions r={r} kind={kind} onDone={() => void q.refetch()} />}
        {WAYBILL_STATUSES.includes(r.transport_request_status_id) && (
          <Button
            startIcon={<DownloadIcon />}
            variant="outlined"
            data-testid="detail-waybill"
            onClick={() =>
              dataProvider
                .downloadWaybill(kind, r.id)
                .then((blob) => saveBlob(blob, translate('request_timeline.waybill_file', { id: r.id })))
                .catch((e) => notify(normalizeError(e).message, { type: 'error' }))
            }
          >
            {translate('request_timeline.waybill')}
          </Button>
        )}
        {WAYBILL_STATUSES.includes(r.transport_request_status_id) && <LabelsButton kind={kind} r={r} />}
        {carrierOpen && (
          <Button startIcon={<CloseIcon />} variant="contained" color="error" onClick={() => ask(r, REFUSE)} data-testid="detail-refuse">
            {translate('requests.refuse')}
          </Button>
        )}
        {kind === 'enduser' && <EnduserRequestActions r={r} onChanged={() => void q.refetch()} />}
      </Box>
      {carrierOpen && r.to_be_quoted && (
        // What to do first: no confirm is offered until the request has a price (the server would refuse it).
        <Alert
          severity="warning"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" onClick={() => navigate(`/edit-transport-requests/${r.id}/${page}`)} data-testid="set-price-action">
              {translate('requests.set_price_action')}
            </Button>
          }
        >
          <span data-testid="set-price-first">{translate('requests.set_price_first')}</span>
        </Alert>
      )}
      <Header r={r} kind={kind} />
      {r.pod && <PodCard requestId={r.id} pod={r.pod} />}
      <Section title={translate('requests.documents')} testId="documents-card">
        {r.documents.length === 0 ? (
          <Typography color="text.secondary">{translate('requests.no_documents')}</Typography>
        ) : (
          <List dense disablePadding>
            {r.documents.map((d) => (
              <ListItem
                key={d.id}
                disableGutters
                secondaryAction={
                  <Button
                    size="small"
                    startIcon={<DownloadIcon />}
                    data-testid={`download-${d.id}`}
                    onClick={() =>
                      dataProvider
                        .download(d.file_path)
                        .then((blob) => saveBlob(blob, d.filename))
                        .catch((e) => notify(normalizeError(e).message, { type: 'error' }))
                    }
                  >
                    {translate('requests.download')}
                  </Button>
                }
              >
                <ListItemText primary={d.filename} secondary={`${d.document_type ?? ''} · ${Math.max(1, Math.round(d.size / 1024))} KB`} />
              </ListItem>
            ))}
          </List>
        )}
      </Section>
      {r.shipment.map((s, i) => (
        <ShipmentCard key={s.id} s={s} n={i + 1} />
      ))}
      <Section title={translate('requests.general_notes')} testId="notes-card">
        <Typography sx={{ whiteSpace: 'pre-wrap' }} color={r.notes ? 'text.primary' : 'text.secondary'}>
          {r.notes || '—'}
        </Typography>
      </Section>
      <RequestTickets r={r} kind={kind} />
      <Timeline entries={r.timeline ?? []} />
      <ActivitySection resource="transport_requests" id={r.id} />
      {dialog}
      {step && phone && (
        <Paper
          elevation={8}
          square
          data-testid="progress-bar"
          // edge to edge: the negative margins undo the phone's padding of <main> (layout/Layout.tsx, 1.5)
          sx={{ position: 'sticky', bottom: 0, zIndex: (t) => t.zIndex.appBar, mx: -1.5, mb: -1.5, px: 1.5, py: 1.5, display: 'flex', gap: 1 }}
        >
          <ProgressActions r={r} kind={kind} onDone={() => void q.refetch()} large />
        </Paper>
      )}
    </Box>
  );
}
