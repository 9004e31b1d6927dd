import { useEffect, useRef, useState } from 'react';
import { useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import type { PortalDataProvider } from '../../dataProvider';
import { Alert, Grid, useMediaQuery, type Theme } from '@mui/material';
import { lazyScreen } from '../../components/lazyScreen';
import { StepOne } from './StepOne';
import { fieldValue, initialForm, serverFieldErrors, toCostRequest, validate } from './request';
import type { CalcForm, CalcKind, CostAnswer, CostRequest, QuoteData, Service, Zone } from './types';

export interface CompanyDefaults {
  country_code?: string | null;
  postal_code?: string | null;
  city?: string | null;
  province?: string | null;
}

// Step 2 and the results load on demand (issue 18: the public quote page paints step 1 without the
// places' autocompletes, the lookups and the number formats), fetched while the browser is idle.
const loadServiceForm = () => import('./ServiceForm');
const loadResults = () => import('./Results');
const ServiceForm = lazyScreen(loadServiceForm, 'ServiceForm');
const Results = lazyScreen(loadResults, 'Results');

function usePrefetchSteps() {
  useEffect(() => {
    const prefetch = () => void Promise.all([loadServiceForm(), loadResults()]).catch(() => undefined);
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(prefetch, { timeout: 3000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = setTimeout(prefetch, 1500);
    return () => clearTimeout(id);
  }, []);
}

/**
 * The calculator of the calculator document §2 for one kind of caller: step 1, step 2, then (no
 * confirmation: a quote books nothing) the results side panel, or the server's refusal in a red alert, or the error of a failed
 * call. Visitors (the public /quote page) send no token, so they are priced as visitors even when signed in.
 */
export function Calculator({ kind, companyDefaults }: { kind: CalcKind; companyDefaults?: CompanyDefaults | null }) {
  usePrefetchSteps();
  const translate = useTranslate();
  const [locale = 'it'] = useLocaleState();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const [form, setForm] = useState<CalcForm>(initialForm);
  const [step2, setStep2] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  // filled (red) for the server's refusal (status false), outlined for what the user must correct
  const [alert, setAlert] = useState<{ filled?: boolean; text: string } | null>(null);
  const [result, setResult] = useState<{ data: QuoteData; request: CostRequest } | null>(null);
  const originTouched = useRef(false);
  const resultsRef = useRef<HTMLDivElement>(null);
  const narrow = useMediaQuery<Theme>((t) => t.breakpoints.down('md'), { noSsr: true });

  // On narrow screens the results panel sits under the form: bring it into view.
  useEffect(() => {
    if (result && narrow) resultsRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  }, [result, narrow]);

  // An end user's origin defaults from its company (country, postal code, city, province).
  useEffect(() => {
    if (kind !== 'enduser' || !companyDefaults || originTouched.current) return;
    const country = (companyDefaults.country_code || 'IT').toUpperCase();
    setForm((f) => ({
      ...f,
      origin: {
        country: f.zone === 'national' ? 'IT' : country,
        postalCode: companyDefaults.postal_code ?? '',
        locality: companyDefaults.city ?? '',
        province: (companyDefaults.province ?? '').toUpperCase(),
      },
    }));
  }, [kind, companyDefaults]);

  const change = (f: CalcForm) => {
    if (f.origin !== form.origin) originTouched.current = true;
    setForm(f);
    // an edited field loses its error, unless the new value is still wrong
    const changed = Object.keys(errors).filter((k) => fieldValue(f, k) !== fieldValue(form, k));
    if (changed.length) {
      const now = validate(f, kind, locale);
      const next = { ...errors };
      for (const k of changed) {
        if (now[k]) next[k] = now[k];
        else delete next[k];
      }
      setErrors(next);
    }
  };

  const chooseStep1 = (zone: Zone | '', service: Service | '') => {
    setForm((f) => ({
      ...f,
      zone,
      service,
      // national shipments stay in Italy: both countries are IT
      ...(zone === 'national' ? { origin: { ...f.origin, country: 'IT' }, destination: { ...f.destination, country: 'IT' } } : {}),
    }));
    if (zone !== form.zone || service !== form.service) {
      setResult(null);
      setAlert(null);
      setErrors({});
    }
  };

  const submit = () => {
    const e = validate(form, kind, locale);
    setErrors(e);
    if (Object.keys(e).length) {
      setAlert({ text: translate('calculator.fix_errors') });
      return;
    }
    // A free quote is calculated at once: no "confirm the request?" step, which read as a booking (issue 35).
    void calculate();
  };

  const calculate = async () => {
    setBusy(true);
    setAlert(null);
    const request = toCostRequest(form, kind, locale);
    try {
      const answer = await dataProvider.costRequest<CostAnswer>(request, { anonymous: kind === 'visitor' });
      if (answer.status) {
        setResult({ data: answer.data, request });
      } else {
        setResult(null);
        setAlert({ filled: true, text: answer.message });
      }
    } catch (err: any) {
      setResult(null);
      const fields = serverFieldErrors(err?.body?.errors);
      if (Object.keys(fields).length) {
        // the messages sit under their fields; the alert says what to do
        setErrors(fields);
        setAlert({ text: translate('calculator.fix_errors') });
      } else {
        const message = String(err?.message || 'ra.notification.http_error');
        setAlert({ filled: true, text: translate(message, { _: message }) });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Grid container spacing={2} alignItems="flex-start">
      <Grid size={{ xs: 12, md: result ? 7 : 12 }} sx={{ display: 'grid', gap: 2 }}>
        <StepOne zone={form.zone} service={form.service} showNext={!step2} onChange={chooseStep1} onNext={() => setStep2(true)} />
        {alert && (
          <Alert severity="error" variant={alert.filled ? 'filled' : 'standard'} role="alert" data-testid="calc-alert" onClose={() => setAlert(null)}>
            {alert.text}
          </Alert>
        )}
        {step2 && form.zone && form.service && <ServiceForm kind={kind} form={form} errors={errors} busy={busy} onChange={change} onSubmit={submit} />}
      </Grid>
      {result && (
        <Grid size={{ xs: 12, md: 5 }} ref={resultsRef}>
          <Results kind={kind} data={result.data} request={result.request} onClose={() => setResult(null)} />
        </Grid>
      )}
    </Grid>
  );
}
