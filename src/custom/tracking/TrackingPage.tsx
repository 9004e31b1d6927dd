import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'ra-core';
import { Alert, Box, Button, CircularProgress, Link, Stack } from '@mui/material';
import type { PortalDataProvider } from '../../dataProvider';
import { TRACK_CODE_MAX, TRACK_POSTAL_CODE_MAX } from '../../../model/publicTracking';
import { normalizeError } from '../../components/feedback/errors';
import { FilledTextField } from '../../components/forms/FilledTextField';
import { PublicCard } from '../accounts/PublicCard';
import { trackingMessages } from './messages';
import { usePageTranslate } from './pageTranslate';
import { useFocusAfterCommit } from '../../components/afterFirstPaint';

/**
 * The answer's view (status, details, events) with the dates' formats (date-fns and its three locales) and
 * the statuses' names, in a file of its own (issue 37): the form a visitor first sees does without them.
 * Requested as soon as a lookup starts, so it arrives with the answer.
 */
const loadResult = () => import('./TrackingResult');
const TrackingResult = lazy(() => loadResult().then((m) => ({ default: m.TrackingResult })));

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
  const codeRef = useFocusAfterCommit<HTMLInputElement>(!asked.code);

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

  const asking = asked.code !== '' && asked.postal !== '';
  useEffect(() => {
    if (asking) void loadResult();
  }, [asking]);

  const failure = result.isError ? normalizeError(result.error) : null;
  return (
    <PublicCard title={translate('tracking.title')} subtitle={translate('tracking.intro')} width={560}>
      <Stack component="form" spacing={2} noValidate onSubmit={submit} data-testid="tracking-form">
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '3fr 2fr' } }}>
          {/* MUI's text field from its parts (FilledTextField): TextField's Select, Menu and Popover are not needed here. */}
          <FilledTextField
            label={translate('tracking.code')}
            name="code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            required
            inputRef={codeRef}
            error={!!missing.code}
            helperText={missing.code ? translate('tracking.required') : translate('tracking.code_help')}
            inputProps={{ maxLength: TRACK_CODE_MAX, autoComplete: 'off', 'data-testid': 'tracking-code' }}
          />
          <FilledTextField
            label={translate('tracking.postal_code')}
            name="postal_code"
            value={postal}
            onChange={(e) => setPostal(e.target.value)}
            required
            error={!!missing.postal}
            helperText={missing.postal ? translate('tracking.required') : ' '}
            inputProps={{ maxLength: TRACK_POSTAL_CODE_MAX, autoComplete: 'postal-code', 'data-testid': 'tracking-postal-code' }}
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
        {!result.isFetching && result.data && (
          <Suspense
            fallback={
              <Box sx={{ display: 'flex', justifyContent: 'center' }}>
                <CircularProgress size={32} aria-label={translate('tracking.submit')} />
              </Box>
            }
          >
            <TrackingResult data={result.data} />
          </Suspense>
        )}
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
