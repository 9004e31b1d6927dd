import { lazy, memo, Suspense, useCallback, useEffect, useMemo, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { Alert, Box, Button, Divider, Link, Stack, Typography } from '@mui/material';
import type { PortalDataProvider } from '../../dataProvider';
import { FilledTextField } from '../../components/forms/FilledTextField';
import { PublicCard } from '../accounts/PublicCard';
import { EMAIL_RE, alertText, readApiError } from '../accounts/errors';
import { useCountries, useLanguages, useLookup, type CompanyItem } from '../accounts/lookups';
import { useAfterFirstPaint } from '../../components/afterFirstPaint';

// The two pickers (MUI's Autocomplete, TextField, Select, Menu: ~36 kB compressed) are requested once the
// page's first screen is painted, while the lookups they show arrive: not on the path to that paint (issue 37).
let places: Promise<typeof import('./CompanyPlaceFields')> | null = null;
const loadPlaces = () => (places ??= import('./CompanyPlaceFields'));
const CountryField = lazy(() => loadPlaces().then((m) => ({ default: m.CountryField })));
const LanguageField = lazy(() => loadPlaces().then((m) => ({ default: m.LanguageField })));

const CARRIER_TEXT = [
  'carrier_name',
  'carrier_email',
  'carrier_phone',
  'carrier_website_url',
  'carrier_address',
  'carrier_city',
  'carrier_postal_code',
  'carrier_province',
] as const;
const USER_TEXT = ['user_first_name', 'user_last_name', 'user_email', 'user_phone'] as const;
const PASSWORDS = ['user_password', 'user_password_confirmation'] as const;
const EMAILS = new Set(['carrier_email', 'user_email']);
/** Optional (issue 35: many small hauliers have none); when given, a web address as the server reads it. */
const OPTIONAL = new Set<string>(['carrier_website_url']);
/** The server's rule (server/routes/visitor/accessRequest.ts): with or without http(s)://, a dotted host, no spaces. */
export const WEBSITE_RE = /^(https?:\/\/)?[^\s/.]+(\.[^\s/.]+)+(\/\S*)?$/i;
type Field = (typeof CARRIER_TEXT)[number] | (typeof USER_TEXT)[number] | (typeof PASSWORDS)[number] | 'carrier_country_id' | 'carrier_language_id';

const grid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } } as const;

/** The invitation's carrier by id, from the public carriers lookup (fetched only for an invitation). */
function useInvitingCarrier(id: number | null) {
  const carriers = useLookup<CompanyItem>('carriers_list', 'carriers_list', id !== null);
  if (id === null) return { loading: false, carrier: null };
  return { loading: carriers.loading, carrier: carriers.data.find((c) => c.id === id) ?? null };
}

/**
 * /access-request: Carrier Data and User Data, every field required but the website (accounts document §2, §3, §5; issue 35).
 * Opened as /access-request?carrier=<id> (a carrier's invitation link) it asks to become that carrier's
 * customer (server.md §4). Success goes to /login with the server's message.
 */
export function AccessRequestPage() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const notify = useNotify();
  const navigate = useNavigate();
  const [locale] = useLocaleState();
  const [params] = useSearchParams();
  const carrierParam = params.get('carrier');
  const carrierId = carrierParam && /^\d+$/.test(carrierParam) ? Number(carrierParam) : carrierParam ? -1 : null;
  const invitation = useInvitingCarrier(carrierId);
  const countries = useCountries();
  const languages = useLanguages();
  const [values, setValues] = useState<Record<string, string>>({});
  const [countryId, setCountryId] = useState<number | null>(null);
  const [languageId, setLanguageId] = useState<number | ''>('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The first render is the title, the introduction and the carrier's text fields (a phone's first screen);
  // the pickers and the user's fields follow in a transition, after that paint (issue 37: the form in one
  // render was 300–600 ms of blocking main-thread work on Lighthouse's 4× slower phone).
  const painted = useAfterFirstPaint();

  // Sensible starting choices: Italy, and the language the visitor reads the page in.
  useEffect(() => {
    if (countryId === null) setCountryId(countries.data.find((c) => c.iso_alpha_2 === 'IT')?.id ?? null);
  }, [countries.data]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (languageId === '') setLanguageId(languages.data.find((l) => l.code === locale)?.id ?? '');
  }, [languages.data]); // eslint-disable-line react-hooks/exhaustive-deps

  const country = useMemo(() => countries.data.find((c) => c.id === countryId) ?? null, [countries.data, countryId]);
  const invalidInvitation = carrierId !== null && !invitation.loading && !invitation.carrier;
  const label = (f: Field) => translate(`accounts.access.fields.${f}`);
  // One handler for every text field (stable: the fields are memoised, so a lookup's answer or a keystroke
  // re-renders only the field it concerns, not the sixteen; issue 37, the page's main-thread time).
  const change = useCallback((e: ChangeEvent<HTMLInputElement>) => {
    const { name, value } = e.target;
    setValues((v) => ({ ...v, [name]: value }));
  }, []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFailure(null);
    const found: Record<string, string> = {};
    for (const f of [...CARRIER_TEXT, ...USER_TEXT, ...PASSWORDS]) {
      const v = (values[f] ?? '').trim();
      if (!v) {
        if (!OPTIONAL.has(f)) found[f] = translate('accounts.required');
      } else if (f === 'carrier_website_url' && !WEBSITE_RE.test(v)) found[f] = translate('accounts.url_invalid');
      else if (EMAILS.has(f) && !EMAIL_RE.test(v)) found[f] = translate('accounts.email_invalid');
    }
    if (!countryId) found.carrier_country_id = translate('accounts.required');
    if (!languageId) found.carrier_language_id = translate('accounts.required');
    if (values.user_password && values.user_password_confirmation && values.user_password !== values.user_password_confirmation) {
      found.user_password_confirmation = translate('accounts.access.mismatch');
    }
    setErrors(found);
    if (Object.keys(found).length || invalidInvitation) return;
    setBusy(true);
    try {
      const body: Record<string, unknown> = { ...values, carrier_country_id: countryId, carrier_language_id: languageId };
      if (carrierId !== null) body.carrier_id = carrierId;
      const answer = await dataProvider.requestAccess(body);
      notify(answer.message, { type: 'success', autoHideDuration: 8000 });
      navigate('/login');
    } catch (err) {
      const { message, fields } = readApiError(err, translate);
      setErrors(fields);
      setFailure(alertText(message, fields, [...CARRIER_TEXT, ...USER_TEXT, ...PASSWORDS, 'carrier_country_id', 'carrier_language_id']));
    } finally {
      setBusy(false);
    }
  }

  const text = (f: Field, extra: Partial<TextProps> = {}) => (
    <Text
      key={f}
      name={f}
      label={label(f)}
      required={!OPTIONAL.has(f)}
      value={values[f] ?? ''}
      onChange={change}
      error={!!errors[f]}
      helperText={errors[f] ?? (OPTIONAL.has(f) ? translate('accounts.optional') : undefined)}
      type={EMAILS.has(f) ? 'email' : 'text'}
      {...extra}
    />
  );

  const subtitle = translate(carrierId !== null ? 'accounts.access.invited_subtitle' : 'accounts.access.subtitle');
  return (
    <PublicCard title={translate('accounts.access.title')} subtitle={subtitle} width={760}>
      <Stack component="form" spacing={3} onSubmit={submit} noValidate>
        {invitation.carrier && (
          <Alert severity="info" icon={false} data-testid="invited-by">
            {translate('accounts.access.invited_notice', { name: invitation.carrier.legal_name })}
          </Alert>
        )}
        {invalidInvitation && (
          <Alert severity="error" data-testid="invitation-invalid">
            {translate('accounts.access.invitation_invalid')}
          </Alert>
        )}
        <Box component="section" aria-labelledby="carrier-data">
          <Typography id="carrier-data" variant="h6" component="h2" sx={{ mb: 2 }}>
            {translate(carrierId !== null ? 'accounts.access.company_data' : 'accounts.access.carrier_data')}
          </Typography>
          <Box sx={grid}>
            {text('carrier_name', { autoComplete: 'organization' })}
            {text('carrier_email', { autoComplete: 'email' })}
            {text('carrier_phone', { autoComplete: 'tel', inputMode: 'tel' })}
            {text('carrier_website_url', { autoComplete: 'url', placeholder: 'www.example.it' })}
            {text('carrier_address', { autoComplete: 'street-address' })}
            {text('carrier_city', { autoComplete: 'address-level2' })}
            {text('carrier_postal_code', { autoComplete: 'postal-code' })}
            {text('carrier_province', { autoComplete: 'address-level1' })}
            {/* A boundary of its own, mounted after the first paint: the transition does not wait for the file. */}
            {painted ? (
              <Suspense fallback={<Waiting label={label('carrier_country_id')} />}>
                <CountryField
                  label={label('carrier_country_id')}
                  countries={countries.data}
                  loading={countries.loading}
                  country={country}
                  onChange={setCountryId}
                  error={errors.carrier_country_id}
                />
              </Suspense>
            ) : (
              <Waiting label={label('carrier_country_id')} />
            )}
            {/* A boundary of its own, mounted after the first paint: the transition does not wait for the file. */}
            {painted ? (
              <Suspense fallback={<Waiting label={label('carrier_language_id')} />}>
                <LanguageField
                  label={label('carrier_language_id')}
                  languages={languages.data}
                  value={languageId}
                  onChange={setLanguageId}
                  error={errors.carrier_language_id}
                />
              </Suspense>
            ) : (
              <Waiting label={label('carrier_language_id')} />
            )}
          </Box>
        </Box>
        <Divider />
        <Box component="section" aria-labelledby="user-data">
          <Typography id="user-data" variant="h6" component="h2" sx={{ mb: 2 }}>
            {translate('accounts.access.user_data')}
          </Typography>
          <Box sx={grid}>
            {painted && (
              <>
                {text('user_first_name', { autoComplete: 'given-name' })}
                {text('user_last_name', { autoComplete: 'family-name' })}
                {text('user_email', { autoComplete: 'username' })}
                {text('user_phone', { autoComplete: 'tel', inputMode: 'tel' })}
                {text('user_password', {
                  type: 'password',
                  autoComplete: 'new-password',
                  helperText: errors.user_password ?? translate('accounts.password_hint'),
                })}
                {text('user_password_confirmation', { type: 'password', autoComplete: 'new-password' })}
              </>
            )}
          </Box>
        </Box>
        {failure && (
          <Alert severity="error" role="alert" data-testid="access-error">
            {failure}
          </Alert>
        )}
        <Box sx={{ display: 'flex', gap: 2, justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap' }}>
          <Link component={RouterLink} to="/login" variant="body2">
            {translate('accounts.back_to_login')}
          </Link>
          <Button type="submit" variant="contained" size="large" disabled={busy || invalidInvitation || invitation.loading} data-testid="access-submit">
            {translate('accounts.access.submit')}
          </Button>
        </Box>
      </Stack>
    </PublicCard>
  );
}

interface TextProps {
  name: string;
  label: string;
  required: boolean;
  value: string;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
  error: boolean;
  helperText?: ReactNode;
  type: string;
  autoComplete?: string;
  inputMode?: 'tel';
  placeholder?: string;
}

/**
 * A text field of the form: MUI's field drawn from its parts (FilledTextField; TextField brings
 * Select, Menu and Popover), memoised — it re-renders when its own value, error or text changes.
 */
const Text = memo(function Text({ inputMode, ...props }: TextProps) {
  return <FilledTextField {...props} inputProps={inputMode ? { inputMode } : undefined} />;
});

/** A picker's place while its file arrives (a moment, with the lookups it lists): the same field, empty and read-only. */
function Waiting({ label }: { label: string }) {
  return <FilledTextField label={label} required readOnly value="" />;
}
