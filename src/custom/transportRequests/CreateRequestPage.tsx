import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Title, useCanAccess, useGetIdentity, useNotify, useTranslate, useLocaleState } from 'react-admin';
import { Alert, Box, Button, Divider, IconButton, TextField, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { normalizeError } from '../../components/feedback/errors';
import { useInvalidateRequests, usePortalData } from './api';
import { placeToSave } from './addressBook';
import {
  newShipment,
  readHandOver,
  serverFieldPath,
  toFormData,
  validate,
  type Contact,
  type DocRow,
  type Errors,
  type PlaceForm,
  type ShipmentForm,
} from './createForm';
import { DocumentsField, GoodsFields, Input, PlaceFields, QuoteSummary } from './formParts';
import { Section } from './parts';

const localToday = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/**
 * /transport-requests (calculator document §2 "Create transport request"): from the calculator's
 * hand-over (one shipment, its places and goods from the quote, the price cards) or by hand (several
 * shipments, goods typed, "to be quoted"). End users send it to newRequest; visitors (`visitor`) to the
 * visitor save calls with their contact details. Success goes to / (visitors back to /quote).
 */
export function CreateRequestPage({ visitor = false }: { visitor?: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const location = useLocation();
  const [query] = useSearchParams();
  const handOver = useMemo(() => readHandOver(location.state, query), [location.state, query]);
  const { identity } = useGetIdentity();
  const dataProvider = usePortalData();
  const invalidate = useInvalidateRequests();
  const countries = useQuery({ queryKey: ['lookup', 'country_list'], queryFn: () => dataProvider.countries(), staleTime: 60_000 });
  // The types are named in the user's language (issue 35): one cache entry per language.
  const [locale] = useLocaleState();
  const docTypes = useQuery({ queryKey: ['lookup', 'document_types_list', locale], queryFn: () => dataProvider.documentTypes(locale), staleTime: 60_000 });

  // The end user's company gives the pickup defaults: location name = legal name, its address (calculator document §2).
  const company = identity?.company;
  const pickupDefaults = useMemo((): Partial<PlaceForm> => {
    if (visitor || !company) return {};
    const iso = countries.data?.find((c) => c.id === company.country_id)?.iso_alpha_2 ?? 'IT';
    return {
      locationName: company.legal_name ?? '',
      address: company.address ?? '',
      postalCode: company.postal_code ?? '',
      city: company.city ?? '',
      province: company.province ?? '',
      country: iso,
    };
  }, [visitor, company, countries.data]);

  // The address book (issue 34): signed-in callers who may list it pick from it; who may add to it is offered
  // to save a place typed by hand. Visitors have none (the auth provider answers no without a session, and
  // loads the permission table only then: the visitor's page does not carry it).
  const queryClient = useQueryClient();
  const mayList = useCanAccess({ resource: 'address-book', action: 'list' }).canAccess === true;
  const mayCreate = useCanAccess({ resource: 'address-book', action: 'create' }).canAccess === true;
  const bookShown = !visitor && mayList;
  const canSave = bookShown && mayCreate;

  const [shipments, setShipments] = useState<ShipmentForm[]>(() => [newShipment(handOver)]);
  const [defaulted, setDefaulted] = useState(false);
  useEffect(() => {
    if (defaulted || !company || !countries.data) return;
    setShipments((list) =>
      list.map((s) => ({
        ...s,
        pickup: { ...s.pickup, ...Object.fromEntries(Object.entries(pickupDefaults).filter(([k]) => !handOver || ['locationName', 'address'].includes(k))) },
      })),
    );
    setDefaulted(true);
  }, [company, countries.data, pickupDefaults, defaulted, handOver]);

  const [notes, setNotes] = useState('');
  const [docs, setDocs] = useState<DocRow[]>([{ key: 0, type: '', file: null }]);
  const [contact, setContact] = useState<Contact>({ company: '', firstname: '', lastname: '', email: '', phone: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const setShipment = (i: number, s: ShipmentForm) => setShipments((list) => list.map((x, j) => (j === i ? s : x)));

  async function submit() {
    setServerError(null);
    const found = validate(shipments, docs, { handOver: !!handOver, today: localToday(), contact: visitor ? contact : undefined });
    setErrors(found);
    if (Object.keys(found).length) {
      notify(translate('requests.check_fields'), { type: 'error' });
      return;
    }
    setSending(true);
    try {
      const body = toFormData(shipments, docs, notes, handOver, visitor ? contact : undefined);
      const answer = visitor ? await dataProvider.saveVisitorRequest(handOver!.shipmentType, body) : await dataProvider.createRequest(body);
      const saved = canSave ? await saveChosenPlaces() : 0;
      const booked = answer.message || translate('requests.created');
      notify(saved ? `${booked} ${translate('address_book_picker.saved', { smart_count: saved })}` : booked, { type: 'success' });
      // The dashboard shows it at once: its statistics (and the request list) are read again.
      await invalidate();
      navigate(visitor ? '/quote' : '/');
    } catch (e) {
      const n = normalizeError(e);
      const mapped: Errors = {};
      for (const [k, list] of Object.entries(n.errors)) {
        const path = serverFieldPath(k);
        if (path) mapped[path] = list[0];
      }
      setErrors(mapped);
      setServerError(n.message);
      // The documents: status false (the price changed) and failures show as an error toast with the message.
      notify(n.message, { type: 'error' });
    } finally {
      setSending(false);
    }
  }

  /**
   * After the booking went through: the places whose "Salva nella rubrica" is ticked go to the address book, the
   * same place once (two shipments from one warehouse). Answers how many were saved; a refusal (a place of that
   * name is already in the book) is told in a warning of its own and does not undo the booking.
   */
  async function saveChosenPlaces() {
    const seen = new Set<string>();
    let saved = 0;
    for (const s of shipments) {
      for (const end of ['pickup', 'delivery'] as const) {
        if (!s[end].saveToBook) continue;
        const place = placeToSave(s[end], end, countries.data ?? []);
        if (!place || seen.has(place.name.toLowerCase())) continue;
        seen.add(place.name.toLowerCase());
        try {
          await dataProvider.saveAddressBookPlace(place);
          saved += 1;
        } catch (e) {
          const n = normalizeError(e);
          notify(translate('address_book_picker.not_saved', { name: place.name, reason: Object.values(n.errors)[0]?.[0] ?? n.message }), {
            type: 'warning',
            multiLine: true,
          });
        }
      }
    }
    if (saved) await queryClient.invalidateQueries({ queryKey: ['address-book'] });
    return saved;
  }

  const book = (end: 'pickup' | 'delivery') => (bookShown ? { end, canSave } : undefined);
  const cancel = () => navigate(visitor ? '/quote' : '/calculate-cost');
  const setC = (k: keyof Contact) => (e: React.ChangeEvent<HTMLInputElement>) => setContact({ ...contact, [k]: e.target.value });

  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto' }} data-testid="create-request">
      <Title title={translate('requests.title_create')} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {translate('requests.title_create')}
      </Typography>
      {!handOver && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('requests.to_be_quoted_hint')}
        </Alert>
      )}

      {shipments.map((s, i) => (
        <Box key={i} data-testid={`shipment-${i}`}>
          {shipments.length > 1 && (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
              <Typography variant="h6" component="h2" color="primary">
                {translate('requests.shipment_n', { n: i + 1 })}
              </Typography>
              <Tooltip title={translate('requests.remove_shipment')}>
                <IconButton
                  aria-label={translate('requests.remove_shipment')}
                  onClick={() => setShipments(shipments.filter((_, j) => j !== i))}
                  data-testid={`remove-shipment-${i}`}
                >
                  <DeleteIcon />
                </IconButton>
              </Tooltip>
            </Box>
          )}
          <Section title={translate('requests.section_shipment')}>
            {handOver && <QuoteSummary h={handOver} />}
            <GoodsFields value={s} onChange={(v) => setShipment(i, v)} errors={errors} path={`s${i}`} handOver={!!handOver} />
          </Section>
          <Section title={translate('requests.section_pickup')}>
            <PlaceFields
              value={s.pickup}
              onChange={(v) => setShipment(i, { ...s, pickup: v })}
              errors={errors}
              path={`s${i}.pickup`}
              countries={countries.data ?? []}
              fromQuote={!!handOver}
              dateRequired
              book={book('pickup')}
            />
          </Section>
          <Section title={translate('requests.section_delivery')}>
            <PlaceFields
              value={s.delivery}
              onChange={(v) => setShipment(i, { ...s, delivery: v })}
              errors={errors}
              path={`s${i}.delivery`}
              countries={countries.data ?? []}
              fromQuote={!!handOver}
              dateRequired={false}
              book={book('delivery')}
            />
          </Section>
        </Box>
      ))}
      {!handOver && (
        <Button
          startIcon={<AddIcon />}
          variant="outlined"
          sx={{ mb: 2 }}
          data-testid="add-shipment"
          onClick={() => setShipments([...shipments, newShipment(null, pickupDefaults)])}
        >
          {translate('requests.add_shipment')}
        </Button>
      )}

      {visitor && (
        <Section title={translate('requests.section_contact')}>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)' } }}>
            {(['company', 'firstname', 'lastname', 'email', 'phone'] as const).map((k) => (
              <Input
                key={k}
                path={`contact.${k}`}
                errors={errors}
                required
                label={translate(`requests.${k}`)}
                value={contact[k]}
                onChange={setC(k)}
                type={k === 'email' ? 'email' : 'text'}
              />
            ))}
          </Box>
        </Section>
      )}

      <Section title={translate('requests.section_notes')}>
        <TextField
          label={translate('requests.general_notes')}
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
          multiline
          minRows={3}
          fullWidth
          sx={{ mb: 3 }}
          slotProps={{ htmlInput: { 'data-testid': 'notes' } }}
        />
        <Divider sx={{ mb: 2 }} />
        <DocumentsField
          rows={docs}
          onChange={setDocs}
          types={docTypes.data ?? []}
          errors={errors}
          onTooLarge={(name) => notify(translate('requests.file_too_large', { name }), { type: 'error' })}
        />
      </Section>

      {serverError && (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="create-error">
          {serverError}
        </Alert>
      )}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, mb: 4 }}>
        <Button onClick={cancel} data-testid="create-cancel">
          {translate('requests.cancel')}
        </Button>
        <Button variant="contained" onClick={submit} disabled={sending} data-testid="create-submit">
          {sending ? translate('requests.sending') : translate('requests.submit')}
        </Button>
      </Box>
    </Box>
  );
}
