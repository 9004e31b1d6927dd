import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import {
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  IconButton,
  MenuItem,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import { useFormat } from '../../components/format';
import { PortalPickerField, type PickerFieldProps } from '../../components/dates/PortalPickers';
import type { DocRow, Errors, HandOver, PlaceForm, PlaceTextField, ShipmentForm, Step } from './createForm';
import { MAX_FILE_BYTES, quotedFigures, readDecimal } from './createForm';
import { formatNumber } from '../calculator/numbers';
import { AddressBookPicker } from './AddressBookPicker';
import { fillFromPlace, quoteMismatch, renamed, type End } from './addressBook';
import { Field, FigureCard } from './parts';
import { PHONE_COMPACT } from '../../components/table/stickyActions';

export type Country = { id: number; en: string; it: string | null; fr: string | null; iso_alpha_2: string | null };

/** An input of the form with its error under it until it is changed (required ones get the red asterisk). */
export function Input({ path, errors, ...props }: { path: string; errors: Errors } & React.ComponentProps<typeof TextField>) {
  const translate = useTranslate();
  const [edited, setEdited] = useState(false);
  useEffect(() => setEdited(false), [errors]);
  const err = edited ? undefined : errors[path];
  return (
    <TextField
      size="small"
      fullWidth
      {...props}
      onChange={(e) => {
        setEdited(true);
        props.onChange?.(e);
      }}
      error={!!err}
      helperText={err ? translate(err) : props.helperText}
      slotProps={{ ...props.slotProps, htmlInput: { 'data-testid': path, ...(props.slotProps as any)?.htmlInput } }}
    />
  );
}

/** A date or time of the form in the portal's language (`YYYY-MM-DD`, `HH:mm` in the form), its error under it until it is changed. */
function PickerInput({
  path,
  errors,
  onChange,
  ...props
}: { path: string; errors: Errors; onChange: (v: string) => void } & Pick<PickerFieldProps, 'kind' | 'label' | 'required' | 'value'>) {
  const translate = useTranslate();
  const [edited, setEdited] = useState(false);
  useEffect(() => setEdited(false), [errors]);
  const err = edited ? undefined : errors[path];
  return (
    <PortalPickerField
      {...props}
      testId={path}
      fullWidth
      error={!!err}
      helperText={err ? translate(err) : undefined}
      onChange={(v) => {
        setEdited(true);
        onChange(v);
      }}
    />
  );
}

const grid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' } } as const;

/**
 * The address book in a place section (issue 34): which end it is, whose places (an admin's form names the
 * company), and whether the section offers to save its place after the booking (the create form only).
 */
export interface BookOptions {
  end: End;
  companyId?: number;
  canSave: boolean;
}

/**
 * Pickup or delivery: date and window, place, notes. The quote's places are shown but not editable. With `book`,
 * "Scegli dalla rubrica" fills the place from the address book (addressBook.ts fillFromPlace) and, for a place
 * typed by hand, "Salva nella rubrica" saves it once the booking is sent. The offer is a checkbox in the section
 * rather than a question after sending: the user decides while looking at the place, the booking's success is
 * not followed by a dialog to dismiss, and a place is only saved with a booking that went through.
 */
export function PlaceFields({
  value,
  onChange,
  errors,
  path,
  countries,
  fromQuote,
  dateRequired,
  book,
}: {
  value: PlaceForm;
  onChange: (v: PlaceForm) => void;
  errors: Errors;
  path: string;
  countries: Country[];
  fromQuote: boolean;
  dateRequired: boolean;
  book?: BookOptions;
}) {
  const translate = useTranslate();
  const { locale } = useFormat();
  const set = (k: PlaceTextField) => (e: React.ChangeEvent<HTMLInputElement>) => onChange({ ...value, [k]: e.target.value });
  const name = (c: Country) => (locale === 'it' ? c.it : locale === 'fr' ? c.fr : c.en) ?? c.en;
  const locked = fromQuote ? { helperText: translate('requests.from_quote_place'), slotProps: { input: { readOnly: true } } } : {};
  const noteLabels = {
    contact: translate('address_book_picker.contact'),
    phone: translate('address_book_picker.phone'),
    email: translate('address_book_picker.email'),
    hours: translate('address_book_picker.hours'),
  };
  return (
    <Box sx={grid}>
      {book && (
        <Box sx={{ gridColumn: '1 / -1' }}>
          <AddressBookPicker
            end={book.end}
            companyId={book.companyId}
            picked={value.bookId ? value.locationName : null}
            unusable={(p) => (quoteMismatch(p, value, countries, fromQuote) ? translate('address_book_picker.other_place') : null)}
            onPick={(p) => onChange(fillFromPlace(value, p, countries, { fromQuote, labels: noteLabels }))}
          />
        </Box>
      )}
      <PickerInput
        kind="date"
        path={`${path}.date`}
        errors={errors}
        label={translate('requests.date')}
        required={dateRequired}
        value={value.date}
        onChange={(v) => onChange({ ...value, date: v })}
      />
      <PickerInput
        kind="time"
        path={`${path}.timeFrom`}
        errors={errors}
        label={translate('requests.time_from')}
        required={dateRequired}
        value={value.timeFrom}
        onChange={(v) => onChange({ ...value, timeFrom: v })}
      />
      <PickerInput
        kind="time"
        path={`${path}.timeTo`}
        errors={errors}
        label={translate('requests.time_to')}
        required={dateRequired}
        value={value.timeTo}
        onChange={(v) => onChange({ ...value, timeTo: v })}
      />
      <Input
        path={`${path}.locationName`}
        errors={errors}
        label={translate('requests.location_name')}
        required
        value={value.locationName}
        onChange={(e) => onChange(renamed(value, e.target.value))}
      />
      <Box sx={{ gridColumn: { lg: 'span 2' } }}>
        <Input path={`${path}.address`} errors={errors} label={translate('requests.address')} required value={value.address} onChange={set('address')} />
      </Box>
      <Input
        path={`${path}.postalCode`}
        errors={errors}
        label={translate('requests.postal_code')}
        required
        value={value.postalCode}
        onChange={set('postalCode')}
        {...locked}
      />
      <Input
        path={`${path}.city`}
        errors={errors}
        label={translate('requests.city')}
        required={!!value.saveToBook}
        value={value.city}
        onChange={set('city')}
        {...locked}
      />
      <Input path={`${path}.province`} errors={errors} label={translate('requests.province')} value={value.province} onChange={set('province')} {...locked} />
      <Input
        path={`${path}.country`}
        errors={errors}
        select
        label={translate('requests.country')}
        required
        value={countries.length ? value.country : ''}
        onChange={set('country')}
        {...(fromQuote ? { helperText: translate('requests.from_quote_place'), disabled: true } : {})}
      >
        {countries
          .filter((c) => c.iso_alpha_2)
          .map((c) => (
            <MenuItem key={c.id} value={c.iso_alpha_2!}>
              {name(c)}
            </MenuItem>
          ))}
      </Input>
      <Box sx={{ gridColumn: { sm: 'span 2', lg: 'span 4' } }}>
        <Input path={`${path}.notes`} errors={errors} label={translate('requests.notes')} value={value.notes} onChange={set('notes')} multiline minRows={1} />
      </Box>
      {book?.canSave && !value.bookId && (
        <Box sx={{ gridColumn: '1 / -1' }}>
          <FormControlLabel
            control={
              <Checkbox
                checked={!!value.saveToBook}
                onChange={(e) => onChange({ ...value, saveToBook: e.target.checked })}
                slotProps={{ input: { 'data-testid': `${path}.saveToBook` } as React.InputHTMLAttributes<HTMLInputElement> }}
              />
            }
            label={translate('address_book_picker.save')}
          />
          {value.saveToBook && (
            <Typography variant="caption" color="text.secondary" component="div" sx={{ ml: 4, mt: -0.5 }}>
              {translate('address_book_picker.save_hint')}
            </Typography>
          )}
        </Box>
      )}
    </Box>
  );
}

/** References, ADR and tail lift, and the goods when entered by hand. */
export function GoodsFields({
  value,
  onChange,
  errors,
  path,
  handOver,
}: {
  value: ShipmentForm;
  onChange: (v: ShipmentForm) => void;
  errors: Errors;
  path: string;
  handOver: boolean;
}) {
  const translate = useTranslate();
  const set = (k: keyof ShipmentForm) => (e: React.ChangeEvent<HTMLInputElement>) => onChange({ ...value, [k]: e.target.value });
  return (
    <Box sx={grid}>
      <Input
        path={`${path}.shipperref`}
        errors={errors}
        label={translate('requests.shipper_reference')}
        required
        value={value.shipperref}
        onChange={set('shipperref')}
      />
      <Input
        path={`${path}.consigneeref`}
        errors={errors}
        label={translate('requests.consignee_reference')}
        value={value.consigneeref}
        onChange={set('consigneeref')}
      />
      <Input
        path={`${path}.consigneeemail`}
        errors={errors}
        type="email"
        label={translate('requests.consignee_email')}
        helperText={translate('requests.consignee_email_hint')}
        value={value.consigneeemail}
        onChange={set('consigneeemail')}
      />
      {!handOver && (
        <>
          <Input
            path={`${path}.units`}
            errors={errors}
            label={translate('requests.units')}
            required
            value={value.units}
            onChange={set('units')}
            inputMode="numeric"
          />
          <Input
            path={`${path}.weight`}
            errors={errors}
            label={translate('requests.weight')}
            required
            value={value.weight}
            onChange={set('weight')}
            inputMode="decimal"
          />
          <Input
            path={`${path}.volume`}
            errors={errors}
            label={translate('requests.volume')}
            required
            value={value.volume}
            onChange={set('volume')}
            inputMode="decimal"
            helperText={translate('requests.volume_hint')}
          />
          <Input
            path={`${path}.volumeType`}
            errors={errors}
            select
            label={translate('requests.volume_type')}
            required
            value={value.volumeType}
            onChange={set('volumeType')}
          >
            {(['CBM', 'LM', 'FTL'] as const).map((t) => (
              <MenuItem key={t} value={t}>
                {translate(`requests.volume_types.${t}`)}
              </MenuItem>
            ))}
          </Input>
          <FormControlLabel
            control={<Checkbox checked={value.adr} onChange={(e) => onChange({ ...value, adr: e.target.checked })} />}
            label={translate('requests.adr')}
          />
          <FormControlLabel
            control={<Checkbox checked={value.taillift} onChange={(e) => onChange({ ...value, taillift: e.target.checked })} />}
            label={translate('requests.tail_lift')}
          />
        </>
      )}
    </Box>
  );
}

/** The quote handed over: route, pallets or units, and the cards price, admin fees, total, lead time. */
export function QuoteSummary({ h }: { h: HandOver }) {
  const translate = useTranslate();
  const { money, locale } = useFormat();
  const num = (v: number | string | null | undefined) => formatNumber(v, locale);
  // On a phone each pallet is a card (issue 35: the table cut its "Misure" column at 390 px).
  const phone = useMediaQuery((t: Theme) => t.breakpoints.down('sm'));
  const q = h.costRequest;
  const f = quotedFigures(h);
  const place = (city?: string, prov?: string, pc?: string, country?: string) =>
    [city, prov ? `(${prov})` : '', pc, country && country.toUpperCase() !== 'IT' ? country.toUpperCase() : ''].filter(Boolean).join(' ');
  const service = h.shipmentType === 'palletExpress' ? `${translate('requests.express')} ${h.shipmentClass}` : translate('requests.standard');
  return (
    <Box data-testid="quote-summary">
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }} data-testid="quote-route">
        {place(q.originLocality, q.originProvince, q.originPostalCode, q.originCountry)} →{' '}
        {place(q.destinationLocality, q.destinationProvince, q.destinationPostalCode, q.destinationCountry)}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('requests.from_quote', { service })}
      </Typography>
      <Box sx={{ overflowX: 'auto', mb: 2 }}>
        {h.shipmentType === 'palletExpress' && phone ? (
          <Box sx={{ display: 'grid', gap: 1 }} data-testid="pallet-cards">
            {(h.palletData ?? []).map((p) => (
              <Paper key={p.row} variant="outlined" sx={{ p: 1.5 }} data-testid={`pallet-card-${p.row}`}>
                <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
                  {translate('requests.pallet_n', { n: p.row })}
                </Typography>
                <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: '1fr 1fr' }}>
                  <Field label={translate('requests.weight_kg')}>{num(p.weight)}</Field>
                  <Field label={`${translate('requests.measure')} (cm)`}>{`${num(p.width)} × ${num(p.length)} × ${num(p.height)}`}</Field>
                  <Field label={translate('requests.band')}>{p.type}</Field>
                </Box>
              </Paper>
            ))}
          </Box>
        ) : h.shipmentType === 'palletExpress' ? (
          <Table size="small" sx={PHONE_COMPACT} data-testid="pallet-table">
            <TableHead>
              <TableRow>
                <TableCell>#</TableCell>
                <TableCell align="right">{translate('requests.weight_kg')}</TableCell>
                <TableCell align="right">{translate('requests.width_cm')}</TableCell>
                <TableCell align="right">{translate('requests.length_cm')}</TableCell>
                <TableCell align="right">{translate('requests.height_cm')}</TableCell>
                <TableCell>{translate('requests.measure')}</TableCell>
                <TableCell>{translate('requests.band')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(h.palletData ?? []).map((p) => (
                <TableRow key={p.row}>
                  <TableCell>{p.row}</TableCell>
                  <TableCell align="right">{num(p.weight)}</TableCell>
                  <TableCell align="right">{num(p.width)}</TableCell>
                  <TableCell align="right">{num(p.length)}</TableCell>
                  <TableCell align="right">{num(p.height)}</TableCell>
                  <TableCell>{`${num(p.width)}×${num(p.length)}×${num(p.height)}`}</TableCell>
                  <TableCell>{p.type}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <Table size="small" sx={PHONE_COMPACT} data-testid="units-table">
            <TableHead>
              <TableRow>
                <TableCell>{translate('requests.volume_type')}</TableCell>
                <TableCell align="right">{translate('requests.units')}</TableCell>
                <TableCell align="right">{translate('requests.weight')}</TableCell>
                <TableCell align="right">{translate('requests.volume')}</TableCell>
                <TableCell align="right">{translate('requests.chargeable_weight')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              <TableRow>
                <TableCell>{h.units?.standardvolumeType ?? q.standardvolumeType}</TableCell>
                <TableCell align="right">{num(h.units?.standardunits ?? q.standardunits)}</TableCell>
                <TableCell align="right">{num(h.units?.standardweight ?? q.standardweight)}</TableCell>
                <TableCell align="right">{num(h.units?.standardvolume ?? q.standardvolume)}</TableCell>
                <TableCell align="right">{num(h.units?.chargeable_weight)}</TableCell>
              </TableRow>
            </TableBody>
          </Table>
        )}
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mb: 2 }}>
        <FigureCard label={translate('requests.price')} value={money(f.price)} testId="card-price" />
        <FigureCard label={translate('requests.admin_fees')} value={money(f.fee)} testId="card-fees" />
        <FigureCard label={translate('requests.total')} value={money(f.total)} testId="card-total" strong />
        <FigureCard
          label={translate('requests.lead_time')}
          value={f.leadTime === null ? '—' : translate('requests.days', { smart_count: f.leadTime })}
          testId="card-leadtime"
        />
      </Box>
    </Box>
  );
}

/** The documents: a type and one file per row; the first row stays, others can be removed; 5 MB each. */
export function DocumentsField({
  rows,
  onChange,
  types,
  errors,
  onTooLarge,
}: {
  rows: DocRow[];
  onChange: (rows: DocRow[]) => void;
  types: Array<{ id: number; name: string }>;
  errors: Errors;
  onTooLarge: (name: string) => void;
}) {
  const translate = useTranslate();
  const set = (i: number, v: Partial<DocRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...v } : r)));
  return (
    <Box>
      <Typography variant="subtitle2" component="h2" sx={{ mb: 1 }}>
        {translate('requests.documents')}
      </Typography>
      {rows.map((r, i) => (
        <Box key={r.key} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 1.5, mb: 1.5 }} data-testid={`doc-row-${i}`}>
          <Box sx={{ flex: '1 1 220px' }}>
            <Input
              path={`doc${i}.type`}
              errors={errors}
              select
              label={translate('requests.document_type')}
              value={r.type}
              onChange={(e) => set(i, { type: Number(e.target.value) })}
              required={!!r.file}
            >
              {types.map((t) => (
                <MenuItem key={t.id} value={t.id}>
                  {t.name}
                </MenuItem>
              ))}
            </Input>
          </Box>
          <Box sx={{ flex: '2 1 260px', display: 'flex', alignItems: 'center', gap: 1 }}>
            <Button component="label" variant="outlined" startIcon={<AttachFileIcon />} sx={{ whiteSpace: 'nowrap' }}>
              {translate('requests.choose_file')}
              <input
                hidden
                type="file"
                data-testid={`doc${i}.file`}
                onChange={(e) => {
                  const file = e.target.files?.[0] ?? null;
                  e.target.value = '';
                  if (file && file.size > MAX_FILE_BYTES) {
                    onTooLarge(file.name);
                    return;
                  }
                  set(i, { file });
                }}
              />
            </Button>
            <Typography variant="body2" color={r.file ? 'text.primary' : 'text.secondary'} noWrap data-testid={`doc${i}.name`}>
              {r.file ? r.file.name : translate('requests.max_file')}
            </Typography>
          </Box>
          {i > 0 && (
            <Tooltip title={translate('requests.remove_document')}>
              <IconButton aria-label={translate('requests.remove_document')} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
                <DeleteIcon />
              </IconButton>
            </Tooltip>
          )}
        </Box>
      ))}
      <Button startIcon={<AddIcon />} onClick={() => onChange([...rows, { key: Date.now(), type: '', file: null }])} data-testid="add-document">
        {translate('requests.add_document')}
      </Button>
    </Box>
  );
}

/**
 * The phone's last step: what will be sent, part by part, each with its step to open for a correction.
 * Numbers as the user's language writes them (350,5 kg in Italian).
 */
export function ReviewPart({
  shipments,
  handOver,
  notes,
  docs,
  countries,
  onOpen,
}: {
  shipments: ShipmentForm[];
  handOver: HandOver | null;
  notes: string;
  docs: DocRow[];
  countries: Country[];
  onOpen: (step: Step) => void;
}) {
  const translate = useTranslate();
  const { locale, money, date } = useFormat();
  const num = (text: string) => {
    const n = readDecimal(text, locale);
    return n === null ? text.trim() || '—' : formatNumber(n, locale);
  };
  const countryName = (iso: string) => {
    const c = countries.find((x) => x.iso_alpha_2 === iso);
    return (c && ((locale === 'it' ? c.it : locale === 'fr' ? c.fr : c.en) ?? c.en)) || iso;
  };
  const place = (a: PlaceForm) =>
    [a.locationName, a.address, [a.postalCode, a.city, a.province ? `(${a.province})` : ''].filter(Boolean).join(' '), countryName(a.country)]
      .filter((x) => x && x.trim())
      .join(', ');
  const when = (a: PlaceForm) => (a.date ? `${date(a.date)}${a.timeFrom || a.timeTo ? `, ${a.timeFrom}–${a.timeTo}` : ''}` : null);
  const block = (title: string, step: Step, children: React.ReactNode, testId: string) => (
    <Paper variant="outlined" sx={{ p: 1.5 }} data-testid={testId}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 1 }}>
        <Typography variant="subtitle2" component="h3" color="primary">
          {title}
        </Typography>
        <Button size="small" onClick={() => onOpen(step)} aria-label={`${translate('requests.edit')}: ${title}`}>
          {translate('requests.edit')}
        </Button>
      </Box>
      <Box sx={{ display: 'grid', gap: 1 }}>{children}</Box>
    </Paper>
  );
  const attached = docs.filter((d) => d.file).map((d) => d.file!.name);
  return (
    <Box sx={{ display: 'grid', gap: 1.5 }} data-testid="review">
      <Typography variant="body2" color="text.secondary">
        {translate('requests.review_hint')}
      </Typography>
      {shipments.map((s, i) => (
        <Box key={i} sx={{ display: 'grid', gap: 1.5 }}>
          {shipments.length > 1 && (
            <Typography variant="subtitle1" component="h3" color="primary">
              {translate('requests.shipment_n', { n: i + 1 })}
            </Typography>
          )}
          {block(
            translate('requests.step_shipment'),
            'shipment',
            <>
              <Field label={translate('requests.shipper_reference')}>{s.shipperref}</Field>
              {s.consigneeref && <Field label={translate('requests.consignee_reference')}>{s.consigneeref}</Field>}
              {handOver ? (
                <Field label={translate('requests.total')}>{money(quotedFigures(handOver).total)}</Field>
              ) : (
                <Field label={translate('requests.goods')} testId={`review-goods-${i}`}>
                  {`${translate('requests.units')}: ${num(s.units)} · ${num(s.weight)} kg · ${translate('requests.volume')} ${num(s.volume)}${s.volumeType ? ` ${s.volumeType}` : ''}`}
                </Field>
              )}
            </>,
            `review-shipment-${i}`,
          )}
          {block(
            translate('requests.step_pickup'),
            'pickup',
            <>
              <Field label={translate('requests.date')}>{when(s.pickup)}</Field>
              <Field label={translate('requests.address')}>{place(s.pickup)}</Field>
            </>,
            `review-pickup-${i}`,
          )}
          {block(
            translate('requests.step_delivery'),
            'delivery',
            <>
              <Field label={translate('requests.date')}>{when(s.delivery)}</Field>
              <Field label={translate('requests.address')}>{place(s.delivery)}</Field>
            </>,
            `review-delivery-${i}`,
          )}
        </Box>
      ))}
      {block(
        translate('requests.step_notes'),
        'notes',
        <>
          <Field label={translate('requests.general_notes')}>{notes.trim() || null}</Field>
          <Field label={translate('requests.review_documents')}>{attached.length ? attached.join(', ') : translate('requests.review_none')}</Field>
        </>,
        'review-notes',
      )}
    </Box>
  );
}
