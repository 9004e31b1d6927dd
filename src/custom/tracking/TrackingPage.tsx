import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'ra-core';
import { Alert, Box, Button, CircularProgress, Link, Stack, TextField, Typography } from '@mui/material';
import type { PortalDataProvider } from '../../dataProvider';
import type { TrackData } from '../../../model/publicTracking';
import { TRACK_CODE_MAX, TRACK_POSTAL_CODE_MAX } from '../../../model/publicTracking';
import { useFormat } from '../../components/format';
import { normalizeError } from '../../components/feedback/errors';
import { PublicCard } from '../accounts/PublicCard';
import { trackingMessages } from './messages';
import { usePageTranslate } from './pageTranslate';

/** The colour of a status: refused and cancelled in red, delivered in green, the others in the brand's. */
const statusColour = (id: number) => (id === 4 || id === 7 ? 'error.main' : id === 6 ? 'success.main' : id === 1 ? 'text.secondary' : 'primary.main');

/**
 * /track (issue 22 item 5, docs/tracking.md): a visitor enters a request number and the destination postal
 * code, or arrives with both in the address (`trackingPath`, model/tracking.ts: the consignee's mail link),
 * and reads the request's status, the dates of its events, the route's cities, the carrier's name and the
 * expected delivery day (issue 35 item 14). The two values live in the address, so a
 * result can be bookmarked; a lookup runs once per pair asked (misses are counted by the server).
 */
export function TrackingPage() {
  const translate = usePageTranslate(trackingMessages);
  const dataProvider = useDataProvider<PortalDataProvider>();
  const [params, setParams] = useSearchParams();
  const asked = { code: params.get('code')?.trim() ?? '', postal: params.get('postal_code')?.trim() ?? '' };
  const [code, setCode] = useState(asked.code);
  const [postal, setPostal] = useState(asked.postal);
  const [missing, setMissing] = useState<{ code?: boolean; postal?: boolean }>({});

  // A link followed while the page is open (another mail) fills the fields again.
  useEffect(() => {
    setCode(asked.code);
    setPostal(asked.postal);
  }, [asked.code, asked.postal]);

  const result = useQuery({
    queryKey: ['public-tracking', asked.code, asked.postal],
    queryFn: ({ signal }) => dataProvider.trackRequest(asked.code, asked.postal, signal),
    enabled: asked.code !== '' && asked.postal !== '',
    // Each try of a wrong pair counts against the visitor: never asked again behind their back.
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    staleTime: Infinity,
    gcTime: 0,
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const next = { code: code.trim(), postal: postal.trim() };
    const gaps = { code: !next.code, postal: !next.postal };
    setMissing(gaps);
    if (gaps.code || gaps.postal) return;
    if (next.code === asked.code && next.postal === asked.postal) void result.refetch();
    else setParams({ code: next.code, postal_code: next.postal });
  }

  const failure = result.isError ? normalizeError(result.error) : null;
  return (
    <PublicCard title={translate('tracking.title')} subtitle={translate('tracking.intro')} width={560}>
      <Stack component="form" spacing={2} noValidate onSubmit={submit} data-testid="tracking-form">
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '3fr 2fr' } }}>
          <TextField
            label={translate('tracking.code')}
            name="code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            required
            autoFocus={!asked.code}
            error={!!missing.code}
            helperText={missing.code ? translate('tracking.required') : translate('tracking.code_help')}
            slotProps={{ htmlInput: { maxLength: TRACK_CODE_MAX, autoComplete: 'off', 'data-testid': 'tracking-code' } }}
          />
          <TextField
            label={translate('tracking.postal_code')}
            name="postal_code"
            value={postal}
            onChange={(e) => setPostal(e.target.value)}
            required
            error={!!missing.postal}
            helperText={missing.postal ? translate('tracking.required') : ' '}
            slotProps={{ htmlInput: { maxLength: TRACK_POSTAL_CODE_MAX, autoComplete: 'postal-code', 'data-testid': 'tracking-postal-code' } }}
          />
        </Box>
        <Button type="submit" variant="contained" size="large" disabled={result.isFetching} data-testid="tracking-submit">
          {translate('tracking.submit')}
        </Button>
      </Stack>
      <Box aria-live="polite" sx={{ mt: 3 }}>
        {result.isFetching && (
          <Box sx={{ display: 'flex', justifyContent: 'center' }}>
            <CircularProgress size={32} aria-label={translate('tracking.submit')} />
          </Box>
        )}
        {!result.isFetching && failure && (
          <Alert severity={failure.status === 429 ? 'warning' : 'error'} data-testid="tracking-error">
            {translate(failure.message, { _: failure.message })}
          </Alert>
        )}
        {!result.isFetching && result.data && <TrackingResult data={result.data} />}
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mt: 3 }}>
        <Link component={RouterLink} to="/quote" variant="body2">
          {translate('tracking.quote')}
        </Link>
        <Link component={RouterLink} to="/login" variant="body2">
          {translate('tracking.signin')}
        </Link>
      </Box>
    </PublicCard>
  );
}

/** A city with its country's name in the user's language ("Roma, Italia"); the country alone, or null. */
function usePlace() {
  const { locale } = useFormat();
  let regions: Intl.DisplayNames | null = null;
  try {
    regions = new Intl.DisplayNames([locale], { type: 'region' });
  } catch {
    regions = null;
  }
  return (city: string | null, country: string | null) => {
    let countryName: string | null = null;
    try {
      countryName = country ? (regions?.of(country) ?? country) : null;
    } catch {
      countryName = country;
    }
    return [city, countryName].filter(Boolean).join(', ') || null;
  };
}

/**
 * What the consignee reads of the shipment (issue 35 item 14): the route's cities, the carrier's name and
 * the expected delivery day (the server's, from the lead time in working days), as a list of terms.
 */
function TrackingDetails({ data }: { data: TrackData }) {
  const translate = usePageTranslate(trackingMessages);
  const { date } = useFormat();
  const place = usePlace();
  const from = place(data.origin_city, data.origin_country);
  const to = place(data.destination_city, data.destination_country);
  const rows: Array<[string, string, string, string | null]> = [];
  if (from || to)
    rows.push([
      'route',
      translate('tracking.route'),
      translate('tracking.route_text', { from: from ?? translate('tracking.unknown'), to: to ?? translate('tracking.unknown') }),
      null,
    ]);
  if (data.carrier_name) rows.push(['carrier', translate('tracking.carrier'), data.carrier_name, null]);
  if (data.expected_delivery)
    rows.push([
      'expected',
      translate('tracking.expected'),
      date(data.expected_delivery, 'EEEE d MMMM yyyy'),
      data.lead_time === null ? null : data.lead_time === 1 ? translate('tracking.lead_one') : translate('tracking.lead_many', { n: data.lead_time }),
    ]);
  if (!rows.length) return null;
  return (
    <Box
      component="dl"
      aria-label={translate('tracking.details_aria')}
      data-testid="tracking-details"
      sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, columnGap: 2, rowGap: { xs: 0.25, sm: 1 }, mt: 2, mb: 0 }}
    >
      {rows.map(([key, term, value, hint]) => (
        <Box key={key} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary" sx={{ mt: { xs: 1, sm: 0 } }}>
            {term}
          </Typography>
          <Typography component="dd" sx={{ m: 0, fontWeight: 500, overflowWrap: 'anywhere' }} data-testid={`tracking-${key}`}>
            {value}
            {hint ? (
              <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block', fontWeight: 400 }}>
                {hint}
              </Typography>
            ) : null}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/** The status in large type, the route, carrier and expected day, then the events oldest first as a vertical line of dots with their dates. */
function TrackingResult({ data }: { data: TrackData }) {
  const translate = usePageTranslate(trackingMessages);
  const { dateTime } = useFormat();
  const statusName = (id: number, fallback?: string) => translate(`tracking.statuses.${id}`, { _: fallback ?? String(id) });
  return (
    <Box data-testid="tracking-result">
      <Box sx={{ borderLeft: 6, borderColor: statusColour(data.status_id), bgcolor: 'action.hover', borderRadius: 1, px: 2, py: 1.5 }}>
        <Typography variant="body2" color="text.secondary">
          {translate('tracking.request', { code: data.code })}
        </Typography>
        <Typography variant="h6" component="h2" sx={{ fontSize: '1rem', fontWeight: 500 }}>
          {translate('tracking.status')}
        </Typography>
        <Typography sx={{ fontSize: '1.75rem', fontWeight: 700, lineHeight: 1.25 }} data-testid="tracking-status" data-status={data.status_id}>
          {statusName(data.status_id, data.status)}
        </Typography>
        {/* Issue 36: a delivery says when, never who signed or the proof itself (the answer carries neither). */}
        {data.status_id === 6 && data.delivered_at && (
          <Typography sx={{ fontWeight: 500 }} data-testid="tracking-delivered-at">
            {translate('tracking.delivered_on', { date: dateTime(data.delivered_at) })}
          </Typography>
        )}
      </Box>
      <TrackingDetails data={data} />
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1.5, fontSize: '1.1rem' }}>
        {translate('tracking.history')}
      </Typography>
      {data.events.length === 0 ? (
        <Typography color="text.secondary">{translate('tracking.empty')}</Typography>
      ) : (
        <Box component="ol" aria-label={translate('tracking.history_aria')} sx={{ listStyle: 'none', m: 0, p: 0 }} data-testid="tracking-events">
          {data.events.map((e, i) => {
            const last = i === data.events.length - 1;
            return (
              <Box
                component="li"
                key={i}
                data-testid="tracking-event"
                data-event={e.event}
                sx={{
                  position: 'relative',
                  pl: 3.5,
                  pb: last ? 0 : 2.5,
                  '&::before': last ? undefined : { content: '""', position: 'absolute', left: 6, top: 16, bottom: 0, width: 2, bgcolor: 'divider' },
                }}
              >
                <Box
                  aria-hidden
                  sx={{
                    position: 'absolute',
                    left: 0,
                    top: 3,
                    width: 14,
                    height: 14,
                    borderRadius: '50%',
                    bgcolor: e.event === 'status_changed' ? statusColour(e.status_id) : 'grey.500',
                    boxShadow: last ? (t) => `0 0 0 3px ${t.palette.background.paper}, 0 0 0 5px ${t.palette.primary.light}` : undefined,
                  }}
                />
                <Typography variant="subtitle2" component="p">
                  {translate(`tracking.events.${e.event}`, { status: statusName(e.status_id) })}
                </Typography>
                <Typography variant="body2" color="text.secondary" component="p">
                  <time dateTime={e.at}>{dateTime(e.at)}</time>
                </Typography>
              </Box>
            );
          })}
        </Box>
      )}
    </Box>
  );
}
