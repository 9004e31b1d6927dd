import { useTranslate } from 'react-admin';
import { Alert, Box, Chip, alpha, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import type { RowsSpec } from '../../../model/tariffs';
import type { CheckRow, TariffCheck, TariffImpact } from '../../dataProvider/tariffs';
import { useFormat } from '../../components/format';
import { formatCell } from './format';

/**
 * The panels of an upload's check (issue 20): the errors as a table, the summary, the changed rows
 * (before → after, the changed cells struck through and underlined, not only coloured) and the effect on
 * the prices of the carrier's recent requests. Pure views of the check's answer.
 */

const NUMBER_LOCALE: Record<string, string> = { it: 'it-IT', en: 'en-GB', fr: 'fr-FR' };

/** 4.25 → "+4,3 %" in Italian (a change in percent, signed; empty for null). */
export function formatPercent(value: number | null | undefined, locale: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const f = new Intl.NumberFormat(NUMBER_LOCALE[locale] ?? 'it-IT', { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' });
  return f.format(value / 100);
}

const countText = (locale: string, n: number) =>
  new Intl.NumberFormat(NUMBER_LOCALE[locale] ?? 'it-IT', { useGrouping: 'always' } as Intl.NumberFormatOptions).format(n);

const headCell = { fontWeight: 600, whiteSpace: 'nowrap' } as const;

export function CheckSummary({ summary, sheet }: { summary: TariffCheck['summary']; sheet?: boolean }) {
  const translate = useTranslate();
  const { locale } = useFormat();
  const none = summary.added + summary.changed + summary.removed === 0;
  const parts = (['added', 'changed', 'removed', 'unchanged'] as const).map((k) => ({
    k,
    text: translate(`tariff_check.${k}`, { count: countText(locale, summary[k]), smart_count: summary[k] }),
  }));
  return (
    <Box data-testid="check-summary">
      <Typography variant="subtitle1" component="h3" fontWeight={600}>
        {translate('tariff_check.summary_title')}
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', my: 1 }} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {parts.map((p) => (
          <li key={p.k}>
            <Chip label={p.text} variant={summary[p.k] && p.k !== 'unchanged' ? 'filled' : 'outlined'} data-testid={`summary-${p.k}`} />
          </li>
        ))}
      </Stack>
      <Alert severity={none ? 'warning' : 'info'} data-testid={none ? 'check-no-change' : 'check-not-saved'}>
        {none
          ? translate(sheet ? 'tariff_check.no_change_sheet' : 'tariff_check.no_change_table')
          : translate(sheet ? 'tariff_check.not_saved_sheet' : 'tariff_check.not_saved')}
      </Alert>
    </Box>
  );
}

/** A cell of a changed row: equal values once; a change as "before → after", the old struck through, the new underlined and bold. */
function ChangedCell({ text, was, kind }: { text: string; was: string; kind: 'added' | 'changed' | 'removed' }) {
  const translate = useTranslate();
  if (kind === 'removed') return <Box component="del">{text}</Box>;
  if (kind === 'added' || was === text) return <>{text}</>;
  return (
    <Box component="span" data-changed="true" sx={{ whiteSpace: 'nowrap' }}>
      <Box component="span" sx={visuallyHidden}>
        {translate('tariff_check.before')}:{' '}
      </Box>
      <Box component="del">{was || '∅'}</Box>
      <span aria-hidden="true"> → </span>
      <Box component="span" sx={visuallyHidden}>
        , {translate('tariff_check.after')}:{' '}
      </Box>
      <Box component="ins" sx={{ fontWeight: 700, textDecorationThickness: 2 }}>
        {text || '∅'}
      </Box>
    </Box>
  );
}

export function ChangesTable({ spec, check }: { spec: RowsSpec; check: TariffCheck }) {
  const translate = useTranslate();
  const { locale } = useFormat();
  const columns = [...spec.columns].sort((a, b) => Number(spec.rowKey.includes(b.name)) - Number(spec.rowKey.includes(a.name)));
  const show = (row: CheckRow | null, name: string) => {
    const c = spec.columns.find((x) => x.name === name)!;
    return row ? formatCell(c, row[name], locale, translate) : '';
  };
  const { added, changed, removed } = check.summary;
  const total = added + changed + removed;
  if (!check.changes.length) return null;
  return (
    <Box data-testid="check-changes">
      <Typography variant="subtitle1" component="h3" fontWeight={600}>
        {translate('tariff_check.changes_title')}
      </Typography>
      {total > check.changes.length && (
        <Typography variant="body2" color="text.secondary">
          {translate('tariff_check.changes_more', { shown: countText(locale, check.changes.length), total: countText(locale, total) })}
        </Typography>
      )}
      <TableContainer sx={{ maxHeight: 360 }} tabIndex={0} aria-label={translate('tariff_check.changes_caption')}>
        <Table size="small" stickyHeader data-testid="check-changes-table">
          <caption style={visuallyHidden as React.CSSProperties}>{translate('tariff_check.changes_caption')}</caption>
          <TableHead>
            <TableRow>
              <TableCell sx={headCell}>{translate('tariff_check.change')}</TableCell>
              {columns.map((c) => (
                <TableCell key={c.name} sx={headCell} title={c.name} align={c.kind === 'text' ? 'left' : 'right'}>
                  {translate(`tariffs.columns.${c.name}`, { _: c.name })}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {check.changes.map((ch, i) => {
              const kind = !ch.before ? 'added' : !ch.after ? 'removed' : 'changed';
              return (
                <TableRow key={i} data-kind={kind}>
                  <TableCell sx={{ fontWeight: 600 }}>{translate(`tariff_check.kind_${kind}`)}</TableCell>
                  {columns.map((c) => {
                    const now = show(ch.after ?? ch.before, c.name);
                    const was = show(ch.before, c.name);
                    const differs = kind === 'changed' && was !== now;
                    return (
                      <TableCell
                        key={c.name}
                        align={c.kind === 'text' ? 'left' : 'right'}
                        sx={differs ? { bgcolor: (t) => alpha(t.palette.warning.main, 0.14) } : undefined}
                      >
                        <ChangedCell text={now} was={was} kind={kind} />
                      </TableCell>
                    );
                  })}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}

/** The effect on the carrier's recent requests: counts, median and extremes, the five that change most. */
export function ImpactPanel({ impact }: { impact: TariffImpact | null }) {
  const translate = useTranslate();
  const { locale, money, date } = useFormat();
  if (!impact) {
    return (
      <Box data-testid="check-impact">
        <Typography variant="subtitle1" component="h3" fontWeight={600}>
          {translate('tariff_check.impact_title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid="impact-none">
          {translate('tariff_check.impact_none')}
        </Typography>
      </Box>
    );
  }
  const figures: Array<[string, string]> = [
    ['considered', countText(locale, impact.considered)],
    ['repriced', countText(locale, impact.repriced)],
    ['same_price', countText(locale, impact.unchanged)],
    ['not_priceable', countText(locale, impact.not_priceable)],
    ['median', formatPercent(impact.median_change_percent, locale)],
    ['max_increase', formatPercent(impact.max_increase_percent, locale)],
    ['max_decrease', formatPercent(impact.max_decrease_percent, locale)],
  ];
  return (
    <Box data-testid="check-impact">
      <Typography variant="subtitle1" component="h3" fontWeight={600}>
        {translate('tariff_check.impact_title')}
      </Typography>
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(4, 1fr)' }, gap: 1, my: 1 }}>
        {figures.map(([k, v]) => (
          <Box key={k} data-testid={`impact-${k}`} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, px: 1, py: 0.5 }}>
            <Typography component="dt" variant="caption" color="text.secondary">
              {translate(`tariff_check.${k}`)}
            </Typography>
            <Typography component="dd" fontWeight={600} sx={{ m: 0 }}>
              {v}
            </Typography>
          </Box>
        ))}
      </Box>
      {impact.requests.length > 0 && (
        <TableContainer>
          <Table size="small" data-testid="impact-requests">
            <caption style={{ captionSide: 'top', textAlign: 'left', padding: '4px 0' }}>{translate('tariff_check.top_caption')}</caption>
            <TableHead>
              <TableRow>
                <TableCell sx={headCell}>{translate('tariff_check.request')}</TableCell>
                <TableCell sx={headCell}>{translate('tariff_check.date')}</TableCell>
                <TableCell sx={headCell} align="right">
                  {translate('tariff_check.price_before')}
                </TableCell>
                <TableCell sx={headCell} align="right">
                  {translate('tariff_check.price_after')}
                </TableCell>
                <TableCell sx={headCell} align="right">
                  {translate('tariff_check.change_percent')}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {impact.requests.map((r) => (
                <TableRow key={r.id}>
                  <TableCell>{r.code}</TableCell>
                  <TableCell>{date(r.created_on)}</TableCell>
                  <TableCell align="right">{money(r.before)}</TableCell>
                  <TableCell align="right">{money(r.after)}</TableCell>
                  <TableCell align="right" sx={{ fontWeight: 600 }}>
                    {formatPercent(r.change_percent, locale)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}

/**
 * How a clean tariff check reads in the upload dialog (components/upload/UploadDialog.tsx `renderCheck`):
 * the summary, the changed rows (with the table's `spec`) and the effect on recent requests. `sheet`: a rate
 * sheet (a publish adds a version) rather than a table (a publish replaces the set).
 */
export const tariffCheckView =
  ({ spec, sheet }: { spec?: RowsSpec; sheet?: boolean }) =>
  (check: TariffCheck) => (
    <>
      <CheckSummary summary={check.summary} sheet={sheet} />
      {spec ? <ChangesTable spec={spec} check={check} /> : null}
      <ImpactPanel impact={check.impact} />
    </>
  );
