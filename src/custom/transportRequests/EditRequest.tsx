import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { Loading, Title, useCanAccess, useNotify, usePermissions, useTranslate } from 'react-admin';
import { Alert, Box, Button, MenuItem, TextField, Typography } from '@mui/material';
import { useFormat } from '../../components/format';
import { ListErrorBlock } from '../../components/feedback/ErrorBlock';
import { normalizeError } from '../../components/feedback/errors';
import { TRANSPORT_REQUEST_STATUSES } from '../../../model/transportStatuses';
import type { Kind } from '../../../model/roles';
import { useInvalidateRequests, usePortalData, type Address, type Shipment, type TransportRequest } from './api';
import { emptyPlace, serverFieldPath, validate, type Errors, type PlaceForm, type PlaceTextField, type ShipmentForm } from './createForm';
import { GoodsFields, PlaceFields } from './formParts';
import { Field, Section, useGoodsSummary } from './parts';
import { isOpen } from './statusActions';

const place = (a: Address | null, s: Shipment, end: 'pickup' | 'delivery'): PlaceForm =>
  emptyPlace({
    date: s[`${end}_date`] ?? '',
    timeFrom: s[`${end}_time_from`] ?? '',
    timeTo: s[`${end}_time_to`] ?? '',
    notes: s[`${end}_notes`] ?? '',
    locationName: a?.location_name ?? '',
    address: a?.address ?? '',
    postalCode: a?.postal_code ?? '',
    city: a?.city ?? '',
    province: a?.province ?? '',
    country: a?.country?.iso_alpha_2 ?? 'IT',
  });
const toForm = (s: Shipment): ShipmentForm => ({
  shipperref: s.shipper_reference,
  consigneeref: s.consignee_reference ?? '',
  consigneeemail: s.consignee_email ?? '',
  adr: !!s.adr,
  taillift: !!s.tail_lift,
  units: '',
  weight: '',
  volume: '',
  volumeType: '',
  pickup: place(s.shipment_addess_pick_up, s, 'pickup'),
  delivery: place(s.shipment_address_delivery, s, 'delivery'),
});
/** "130,90" or "130.90" as a number; empty or unreadable counts 0 (calculator document §2 "read-only total"). */
const num = (v: string) => {
  const n = Number(v.trim().replace(',', '.'));
  return Number.isFinite(n) ? n : 0;
};
/** The stored amount as the user types it: "130,90" (Italian, French), "130.90" (English); no thousands separator. */
const amountText = (v: number | null, locale: string) => (v === null ? '' : locale === 'en' ? v.toFixed(2) : v.toFixed(2).replace('.', ','));

/**
 * /edit-transport-requests/{id}/{page} (calculator document §2 "Edit transport request"): the request's
 * number, requester, price, admin fees, the read-only total, the status (admins), the date, reason and
 * contact; per shipment the references and the pickup and delivery blocks; the general notes.
 */
export function EditRequest() {
  const { id = '', page = '1' } = useParams();
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const { money, dateTime, locale } = useFormat();
  const { permissions: kind } = usePermissions<Kind>();
  const goods = useGoodsSummary();
  const dataProvider = usePortalData();
  const invalidate = useInvalidateRequests();
  const q = useQuery({ queryKey: ['transport_request', kind, id], queryFn: () => dataProvider.showRequest(kind!, id), enabled: !!kind });
  const countries = useQuery({ queryKey: ['lookup', 'country_list'], queryFn: () => dataProvider.countries(), staleTime: 60_000 });
  const [form, setForm] = useState<null | {
    price: string;
    fee: string;
    status: number;
    reason: string;
    contact: string;
    notes: string;
    company: string;
    firstname: string;
    lastname: string;
    email: string;
    phone: string;
    shipments: ShipmentForm[];
  }>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const mayPick = useCanAccess({ resource: 'address-book', action: 'list' }).canAccess === true;

  useEffect(() => {
    const r = q.data;
    if (!r || form) return;
    setForm({
      price: amountText(r.cost, locale),
      fee: amountText(r.admin_fees, locale),
      status: r.transport_request_status_id,
      reason: r.reason ?? '',
      contact: r.contact ?? '',
      notes: r.notes ?? '',
      company: r.visitor_company ?? '',
      firstname: r.firstname ?? '',
      lastname: r.lastname ?? '',
      email: r.email ?? '',
      phone: r.phone ?? '',
      shipments: r.shipment.map(toForm),
    });
  }, [q.data, form, locale]);

  if (!kind || q.isPending || !form) return q.error ? <ListErrorBlock error={q.error} /> : <Loading />;
  const r: TransportRequest = q.data!;
  const admin = kind === 'admin';
  const locked = !admin && !isOpen(r);
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [k]: e.target.value });
  const setShipment = (i: number, s: ShipmentForm) => setForm({ ...form, shipments: form.shipments.map((x, j) => (j === i ? s : x)) });
  const back = () => navigate(`/transport-requests-visuals?page=${encodeURIComponent(page)}`);
  // The address book (issue 34): a carrier picks from its own places, an admin from the requesting company's
  // (none for a visitor's request); nothing is saved from here, the edit changes a booking already made.
  const bookCompany = admin ? (r.enduser?.id ?? null) : undefined;
  const book = (end: 'pickup' | 'delivery') => (mayPick && bookCompany !== null ? { end, companyId: bookCompany, canSave: false } : undefined);

  async function submit() {
    const found = validate(form!.shipments, [], { handOver: true, today: '0000-00-00' });
    setErrors(found);
    if (Object.keys(found).length) {
      notify(translate('requests.check_fields'), { type: 'error' });
      return;
    }
    const f = form!;
    const list = (pick: (s: ShipmentForm) => string) => f.shipments.map(pick);
    const body: Record<string, unknown> = {
      tr_id: r.id,
      price: f.price.trim(),
      adminfee: f.fee.trim(),
      notes: f.notes,
      reason: f.reason,
      contact: f.contact,
      sid: r.shipment.map((s) => s.id),
      pid: r.shipment.map((s) => s.shipment_addess_pick_up?.id),
      did: r.shipment.map((s) => s.shipment_address_delivery?.id),
      shipperref: list((s) => s.shipperref),
      consigneeref: list((s) => s.consigneeref),
      consigneeemail: list((s) => s.consigneeemail.trim()),
    };
    for (const end of ['pickup', 'delivery'] as const) {
      const map: Record<string, PlaceTextField> = {
        date: 'date',
        timefrom: 'timeFrom',
        timeto: 'timeTo',
        locationname: 'locationName',
        address: 'address',
        postalcode: 'postalCode',
        city: 'city',
        province: 'province',
        country: 'country',
        notes: 'notes',
      };
      for (const [k, v] of Object.entries(map)) body[`${end}${k}`] = list((s) => s[end][v]);
    }
    if (admin) {
      Object.assign(body, { status_id: f.status });
      if (!r.enduser) Object.assign(body, { company: f.company, firstname: f.firstname, lastname: f.lastname, email: f.email, phone: f.phone });
    }
    setSending(true);
    try {
      const answer = await dataProvider.updateRequest(body);
      notify(answer.message || translate('requests.updated'), { type: 'success' });
      await invalidate();
      navigate('/transport-requests-visuals');
    } catch (e) {
      const n = normalizeError(e);
      const mapped: Errors = {};
      for (const [k, msgs] of Object.entries(n.errors)) mapped[k === 'adminfee' ? 'fee' : (serverFieldPath(k) ?? k)] = msgs[0];
      setErrors(mapped);
      notify(n.message, { type: 'error' });
    } finally {
      setSending(false);
    }
  }

  const text = (k: keyof typeof form, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      size="small"
      fullWidth
      label={label}
      value={form[k] as string}
      onChange={set(k)}
      error={!!errors[k]}
      helperText={errors[k]}
      slotProps={{ htmlInput: { 'data-testid': `edit-${k}` } }}
      {...extra}
    />
  );
  const grid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' } } as const;
  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto' }} data-testid="edit-request">
      <Title title={translate('requests.title_edit', { id: r.id })} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {translate('requests.title_edit', { id: r.id })}
      </Typography>
      {locked && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="edit-locked">
          {translate('requests.not_editable')}
        </Alert>
      )}
      <Section title={translate('requests.request_number') + ' ' + r.id}>
        <Box sx={{ ...grid, mb: 2 }}>
          <Field label={translate('requests.requester')}>{r.enduser?.legal_name ?? r.visitor_company}</Field>
          <Field label={translate('requests.created_at')}>{dateTime(r.created_at)}</Field>
          <Field label={translate('requests.carrier')}>{r.carrier.legal_name}</Field>
        </Box>
        <Box sx={grid}>
          {text('price', translate('requests.price'), {
            inputMode: 'decimal',
            helperText: errors.price ?? (form.price.trim() ? undefined : translate('requests.to_be_quoted')),
          })}
          {text('fee', translate('requests.admin_fees'), { inputMode: 'decimal' })}
          <TextField
            size="small"
            fullWidth
            label={translate('requests.total')}
            value={money(Math.round((num(form.price) + num(form.fee)) * 100) / 100)}
            helperText={translate('requests.total_hint')}
            slotProps={{ input: { readOnly: true }, htmlInput: { 'data-testid': 'edit-total' } }}
          />
          {admin ? (
            <TextField
              size="small"
              select
              fullWidth
              label={translate('requests.status')}
              value={form.status}
              onChange={(e) => setForm({ ...form, status: Number(e.target.value) })}
              slotProps={{ htmlInput: { 'data-testid': 'edit-status' } }}
            >
              {TRANSPORT_REQUEST_STATUSES.map((s) => (
                <MenuItem key={s.id} value={s.id}>
                  {translate(`requests.statuses.${s.id}`)}
                </MenuItem>
              ))}
            </TextField>
          ) : (
            <Field label={translate('requests.status')}>{translate(`requests.statuses.${r.transport_request_status_id}`)}</Field>
          )}
          {text('reason', translate('requests.reason'))}
          {text('contact', translate('requests.contact'))}
          {admin &&
            !r.enduser &&
            (['company', 'firstname', 'lastname', 'email', 'phone'] as const).map((k) => <Box key={k}>{text(k, translate(`requests.${k}`))}</Box>)}
        </Box>
      </Section>
      {form.shipments.map((s, i) => (
        <Section key={i} title={translate('requests.shipment_n', { n: i + 1 })}>
          <Box sx={{ mb: 2 }}>
            <Field label={translate('requests.goods')} testId={`edit-goods-${i}`}>
              {r.shipment[i] ? goods(r.shipment[i]) : null}
            </Field>
          </Box>
          <GoodsFields value={s} onChange={(v) => setShipment(i, v)} errors={errors} path={`s${i}`} handOver />
          <Typography variant="subtitle2" component="h2" color="primary" sx={{ mt: 3, mb: 1.5 }}>
            {translate('requests.pickup')}
          </Typography>
          <PlaceFields
            value={s.pickup}
            onChange={(v) => setShipment(i, { ...s, pickup: v })}
            errors={errors}
            path={`s${i}.pickup`}
            countries={countries.data ?? []}
            fromQuote={false}
            dateRequired
            book={book('pickup')}
          />
          <Typography variant="subtitle2" component="h2" color="primary" sx={{ mt: 3, mb: 1.5 }}>
            {translate('requests.delivery')}
          </Typography>
          <PlaceFields
            value={s.delivery}
            onChange={(v) => setShipment(i, { ...s, delivery: v })}
            errors={errors}
            path={`s${i}.delivery`}
            countries={countries.data ?? []}
            fromQuote={false}
            dateRequired={false}
            book={book('delivery')}
          />
        </Section>
      ))}
      <Section title={translate('requests.general_notes')}>{text('notes', translate('requests.general_notes'), { multiline: true, minRows: 3 })}</Section>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, mb: 4 }}>
        <Button onClick={back}>{translate('requests.cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={sending || locked} data-testid="edit-submit">
          {translate('requests.submit_edit')}
        </Button>
      </Box>
    </Box>
  );
}
