import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Title, useCanAccess, useGetIdentity, useLocaleState, useNotify, useTranslate } from 'react-admin';
import {
  Alert,
  Box,
  Button,
  Divider,
  IconButton,
  Step as MuiStep,
  StepButton,
  StepLabel,
  Stepper,
  TextField,
  Tooltip,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { normalizeError } from '../../components/feedback/errors';
import { useInvalidateRequests, usePortalData } from './api';
import { placeToSave } from './addressBook';
import {
  STEPS,
  errorsOfStep,
  firstWrongStep,
  newShipment,
  readHandOver,
  stepOfPath,
  serverFieldPath,
  toFormData,
  validate,
  type Contact,
  type DocRow,
  type Errors,
  type PlaceForm,
  type ShipmentForm,
  type Step,
} from './createForm';
import { DocumentsField, GoodsFields, Input, PlaceFields, QuoteSummary, ReviewPart } from './formParts';
import { Section } from './parts';

const localToday = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/**
 * /transport-requests (calculator document §2 "Create transport request"): from the calculator's
 * hand-over (one shipment, its places and goods from the quote, the price cards) or by hand (several
 * shipments, goods typed, "to be quoted"). End users send it to newRequest; visitors (`visitor`) to the
 * visitor save calls with their contact details. Success opens the new request's detail, its number in the
 * message (issue 35; visitors, who have no request screens, go back to /quote).
 *
 * Issue 35: on a phone (below the theme's `sm`, 600 px: phones in either orientation; a tablet keeps the
 * desktop's sections, which fit it) the form is a stepper: shipment, pickup, delivery, notes and documents,
 * review. "Avanti" checks the step it leaves; the step headers open any step (the review shows what is
 * missing). On a desktop the same parts are sections with headings. A send with errors opens the first
 * wrong step (phone) and scrolls to and focuses the first wrong field (both).
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
  const [locale = 'it'] = useLocaleState();
  const phone = useMediaQuery((t: Theme) => t.breakpoints.down('sm'));
  const [step, setStep] = useState<Step>('shipment');
  const formRef = useRef<HTMLDivElement>(null);
  // Bumped when errors are shown: after that render, the first wrong field gets the focus.
  const [focusRequest, setFocusRequest] = useState(0);
  const countries = useQuery({ queryKey: ['lookup', 'country_list'], queryFn: () => dataProvider.countries(), staleTime: 60_000 });
  // The types are named in the user's language (issue 35): one cache entry per language.
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

  const check = () => validate(shipments, docs, { handOver: !!handOver, today: localToday(), contact: visitor ? contact : undefined, locale });

  /** Shows errors: the first wrong step opens (phone) and its first wrong field gets the focus. */
  function showErrors(found: Errors) {
    setErrors(found);
    const wrong = firstWrongStep(found);
    if (wrong) setStep(wrong);
    setFocusRequest((n) => n + 1);
  }
  useEffect(() => {
    if (!focusRequest) return;
    // A frame later: each input drops its "edited" mark in an effect of its own, then shows its error.
    const frame = requestAnimationFrame(() => focusFirstWrong(formRef.current, errors));
    return () => cancelAnimationFrame(frame);
  }, [focusRequest]); // eslint-disable-line react-hooks/exhaustive-deps

  /** A phone's "Avanti": the step's own errors keep it open, else the next step. */
  function next() {
    const own = errorsOfStep(check(), step);
    if (Object.keys(own).length) {
      showErrors(own);
      return;
    }
    // The marks of a send stay on the fields still wrong (the stepper keeps showing which steps need a look).
    const now = check();
    setErrors((shown) => Object.fromEntries(Object.entries(now).filter(([k]) => k in shown)));
    go(STEPS[STEPS.indexOf(step) + 1] ?? step);
  }

  /** Opens a step at its top. */
  function go(to: Step) {
    setStep(to);
    window.scrollTo({ top: 0 });
  }

  async function submit() {
    setServerError(null);
    const found = check();
    if (Object.keys(found).length) {
      showErrors(found);
      notify(translate('requests.check_fields'), { type: 'error' });
      return;
    }
    setErrors({});
    setSending(true);
    try {
      const body = toFormData(shipments, docs, notes, handOver, visitor ? contact : undefined, locale);
      const answer = visitor ? await dataProvider.saveVisitorRequest(handOver!.shipmentType, body) : await dataProvider.createRequest(body);
      const saved = canSave ? await saveChosenPlaces() : 0;
      const id = (answer.data as { id?: number } | undefined)?.id;
      const booked = id ? translate('requests.created_n', { id }) : answer.message || translate('requests.created');
      notify(saved ? `${booked} ${translate('address_book_picker.saved', { smart_count: saved })}` : booked, { type: 'success' });
      // The dashboard and the list show it at once: their statistics and rows are read again.
      await invalidate();
      navigate(visitor || !id ? '/quote' : `/transport-requests-visuals/${id}/1`);
    } catch (e) {
      const n = normalizeError(e);
      const mapped: Errors = {};
      for (const [k, list] of Object.entries(n.errors)) {
        const path = serverFieldPath(k);
        if (path) mapped[path] = list[0];
      }
      showErrors(mapped);
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

  // The parts, shown as sections on a desktop and as steps on a phone.
  const shipmentHeading = (i: number) =>
    shipments.length > 1 && (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography variant="h6" component={phone ? 'h3' : 'h2'} color="primary">
          {translate('requests.shipment_n', { n: i + 1 })}
        </Typography>
        {(!phone || step === 'shipment') && (
          <Tooltip title={translate('requests.remove_shipment')}>
            <IconButton
              aria-label={translate('requests.remove_shipment')}
              onClick={() => setShipments(shipments.filter((_, j) => j !== i))}
              data-testid={`remove-shipment-${i}`}
            >
              <DeleteIcon />
            </IconButton>
          </Tooltip>
        )}
      </Box>
    );
  const goodsPart = (s: ShipmentForm, i: number) => (
    <GoodsFields value={s} onChange={(v) => setShipment(i, v)} errors={errors} path={`s${i}`} handOver={!!handOver} />
  );
  const placePart = (s: ShipmentForm, i: number, end: 'pickup' | 'delivery') => (
    <PlaceFields
      value={s[end]}
      onChange={(v) => setShipment(i, { ...s, [end]: v })}
      errors={errors}
      path={`s${i}.${end}`}
      countries={countries.data ?? []}
      fromQuote={!!handOver}
      dateRequired={end === 'pickup'}
      book={book(end)}
    />
  );
  const addShipment = !handOver && (
    <Button
      startIcon={<AddIcon />}
      variant="outlined"
      sx={{ mb: 2 }}
      data-testid="add-shipment"
      onClick={() => setShipments([...shipments, newShipment(null, pickupDefaults)])}
    >
      {translate('requests.add_shipment')}
    </Button>
  );
  const contactPart = visitor && (
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
  );
  const notesPart = (
    <>
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
    </>
  );
  const serverAlert = serverError && (
    <Alert severity="error" sx={{ mb: 2 }} data-testid="create-error">
      {serverError}
    </Alert>
  );
  const submitButton = (
    <Button variant="contained" onClick={submit} disabled={sending} data-testid="create-submit">
      {sending ? translate('requests.sending') : translate('requests.submit')}
    </Button>
  );
  const heading = (
    <>
      <Title title={translate('requests.title_create')} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {translate('requests.title_create')}
      </Typography>
      {!handOver && (!phone || step === 'shipment') && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('requests.to_be_quoted_hint')}
        </Alert>
      )}
    </>
  );

  if (phone) {
    const at = STEPS.indexOf(step);
    const wrongSteps = new Set(Object.keys(errors).map(stepOfPath));
    const name = (st: Step) => translate(`requests.step_${st}`);
    return (
      <Box ref={formRef} data-testid="create-request" data-layout="steps" data-step={step}>
        {heading}
        <Stepper
          nonLinear
          alternativeLabel
          activeStep={at}
          aria-label={translate('requests.steps_label')}
          // Five equal columns that never push the page wider than a 360 px phone: a long label wraps.
          sx={{ mb: 2, mx: -1, '& .MuiStep-root': { flex: '1 1 0', minWidth: 0, px: 0.25 }, '& .MuiStepLabel-label': { overflowWrap: 'anywhere' } }}
        >
          {STEPS.map((st) => (
            <MuiStep key={st} completed={false}>
              <StepButton
                onClick={() => go(st)}
                data-testid={`step-${st}`}
                aria-current={st === step ? 'step' : undefined}
                sx={{ px: 0, py: 1, mx: 0, width: '100%', '& .MuiStepLabel-label': { fontSize: 12, mt: '4px !important' } }}
              >
                <StepLabel error={wrongSteps.has(st)}>
                  {name(st)}
                  {/* The red icon says it to the eye; the words to a screen reader. */}
                  {wrongSteps.has(st) && <span style={visuallyHidden}> ({translate('requests.step_errors')})</span>}
                </StepLabel>
              </StepButton>
            </MuiStep>
          ))}
        </Stepper>
        <Section title={translate('requests.step_of', { n: at + 1, total: STEPS.length, name: name(step) })} testId={`step-panel-${step}`}>
          {step === 'shipment' && (
            <>
              {handOver && <QuoteSummary h={handOver} />}
              {shipments.map((s, i) => (
                <Box key={i} data-testid={`shipment-${i}`} sx={{ mb: 2 }}>
                  {shipmentHeading(i)}
                  {goodsPart(s, i)}
                </Box>
              ))}
              {addShipment}
            </>
          )}
          {(step === 'pickup' || step === 'delivery') &&
            shipments.map((s, i) => (
              <Box key={i} data-testid={`shipment-${i}`} sx={{ mb: 2 }}>
                {shipmentHeading(i)}
                {placePart(s, i, step)}
              </Box>
            ))}
          {step === 'notes' && notesPart}
          {step === 'review' && <ReviewPart shipments={shipments} handOver={handOver} notes={notes} docs={docs} countries={countries.data ?? []} onOpen={go} />}
        </Section>
        {step === 'notes' && contactPart}
        {serverAlert}
        <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, mb: 4 }}>
          {at === 0 ? (
            <Button onClick={cancel} data-testid="create-cancel">
              {translate('requests.cancel')}
            </Button>
          ) : (
            <Button onClick={() => go(STEPS[at - 1]!)} data-testid="step-previous">
              {translate('requests.step_previous')}
            </Button>
          )}
          {step === 'review' ? (
            submitButton
          ) : (
            <Button variant="contained" onClick={next} data-testid="step-next">
              {translate('requests.step_next')}
            </Button>
          )}
        </Box>
      </Box>
    );
  }

  return (
    <Box ref={formRef} sx={{ maxWidth: 1200, mx: 'auto' }} data-testid="create-request" data-layout="sections">
      {heading}
      {shipments.map((s, i) => (
        <Box key={i} data-testid={`shipment-${i}`}>
          {shipmentHeading(i)}
          <Section title={translate('requests.section_shipment')}>
            {handOver && <QuoteSummary h={handOver} />}
            {goodsPart(s, i)}
          </Section>
          <Section title={translate('requests.section_pickup')}>{placePart(s, i, 'pickup')}</Section>
          <Section title={translate('requests.section_delivery')}>{placePart(s, i, 'delivery')}</Section>
        </Box>
      ))}
      {addShipment}
      {contactPart}
      <Section title={translate('requests.section_notes')}>{notesPart}</Section>
      {serverAlert}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, mb: 4 }}>
        <Button onClick={cancel} data-testid="create-cancel">
          {translate('requests.cancel')}
        </Button>
        {submitButton}
      </Box>
    </Box>
  );
}

/**
 * Scrolls to and focuses the first field (in the page's order) that has an error: its input, a select's
 * combobox, a date's first part, a document's "Scegli file" button. The fields carry their path as `data-testid`.
 */
function focusFirstWrong(root: HTMLElement | null, errors: Errors) {
  if (!root) return;
  const el = Array.from(root.querySelectorAll<HTMLElement>('[data-testid]')).find((e) => errors[e.dataset.testid ?? ''] !== undefined);
  if (!el) return;
  const control = (el.closest('.MuiFormControl-root') as HTMLElement | null) ?? el;
  const candidates =
    el instanceof HTMLInputElement && el.type === 'file'
      ? [el.closest<HTMLElement>('[tabindex]')]
      : [
          el.matches('input:not([aria-hidden="true"]):not([type="hidden"]):not([type="file"]), textarea') ? el : null,
          ...control.querySelectorAll<HTMLElement>(
            '[role="combobox"], [role="spinbutton"], [contenteditable="true"], input:not([aria-hidden="true"]):not([type="hidden"]), textarea, [tabindex="0"]',
          ),
        ];
  for (const c of candidates) {
    if (!c) continue;
    c.scrollIntoView({ block: 'center' });
    c.focus();
    if (control.contains(document.activeElement) || c === document.activeElement) return;
  }
}
