import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Collapse,
  Divider,
  IconButton,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import type { PortalDataProvider } from '../../dataProvider';
import { saveBlob } from '../../components/download';
import { normalizeError } from '../../components/feedback/errors';
import ExpandMore from '@mui/icons-material/ExpandMore';
import ExpandLess from '@mui/icons-material/ExpandLess';
import { formatMoney as formatEuro } from '../../components/format';
import { formatNumber } from './numbers';
import type { CalcKind, CostRequest, QuoteData, QuoteHandOver } from './types';

const round2 = (n: number) => Math.round(n * 100) / 100;

function Row({ label, value, strong, testId }: { label: string; value: ReactNode; strong?: boolean; testId?: string }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, py: 0.25 }}>
      <Typography variant={strong ? 'subtitle1' : 'body2'} color={strong ? 'text.primary' : 'text.secondary'} sx={{ fontWeight: strong ? 600 : 400 }}>
        {label}
      </Typography>
      <Typography variant={strong ? 'subtitle1' : 'body2'} sx={{ fontWeight: strong ? 700 : 500, whiteSpace: 'nowrap' }} data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
}

/**
 * The results side panel (calculator document §2): per class (SILVER, GOLD) the total, admin fee and
 * lead time, with list, offer and buy prices for carriers and admins; for standard the shipment cost,
 * admin fee, total and lead time. The breakdown opens under the result. End users start a request
 * from here: silver or gold, or the standard one.
 */
export function Results({ kind, data, request, onClose }: { kind: CalcKind; data: QuoteData; request: CostRequest; onClose: () => void }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const dataProvider = useDataProvider<PortalDataProvider>();
  const [pdfBusy, setPdfBusy] = useState(false);
  // Shown here: the visitor's shell has no toasts.
  const [pdfError, setPdfError] = useState<string | null>(null);
  // The same quote as a PDF (issue 22): priced again by the server, what this caller's quote shows.
  const downloadPdf = () => {
    setPdfBusy(true);
    setPdfError(null);
    dataProvider
      .quotePdf(request, { anonymous: kind === 'visitor' })
      .then((blob) => saveBlob(blob, translate('calculator.download_pdf_file')))
      .catch((e) => setPdfError(normalizeError(e).message))
      .finally(() => setPdfBusy(false));
  };
  const euro = (v: number | null | undefined) => (v === null || v === undefined ? translate('calculator.not_available') : formatEuro(v, locale));
  const days = (d: number | null | undefined) =>
    d === null || d === undefined ? translate('calculator.not_available') : translate('calculator.days', { smart_count: d });
  const seller = kind === 'carrier' || kind === 'admin';

  const start = (handOver: QuoteHandOver) => {
    const q = new URLSearchParams({ shipmentType: handOver.shipmentType, ...(handOver.shipmentClass ? { shipmentClass: handOver.shipmentClass } : {}) });
    // Visitors book on the public page with their contact details (issue 9); end users in the portal.
    navigate(`${kind === 'visitor' ? '/quote/request' : '/transport-requests'}?${q}`, { state: handOver });
  };

  const p = data.prices_list;
  const c = data.costo_complete;
  return (
    <Paper sx={{ p: 2, position: { md: 'sticky' }, top: { md: 96 } }} data-testid="calc-results" aria-live="polite">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h6" component="h2">
          {translate('calculator.results')}
        </Typography>
        <IconButton onClick={onClose} aria-label={translate('calculator.close_results')} size="small">
          <CloseIcon />
        </IconButton>
      </Box>

      {p && (
        <Box sx={{ display: 'grid', gap: 1.5, mt: 1 }}>
          {(['SILVER', 'GOLD'] as const).map((cls) => {
            const k = cls.toLowerCase() as 'silver' | 'gold';
            const offer = p[`x_total_${k}_sell`];
            const buy = p[`total_${k}_buy`];
            return (
              <Card key={cls} variant="outlined" data-testid={`result-${k}`}>
                <CardContent sx={{ pb: '12px !important' }}>
                  <Chip label={cls} size="small" color={cls === 'GOLD' ? 'warning' : 'default'} sx={{ fontWeight: 700, mb: 1 }} />
                  <Row strong label={translate('calculator.total')} value={formatEuro(round2(offer + p.admin_fee), locale)} testId={`${k}-total`} />
                  <Row label={translate('calculator.admin_fee')} value={formatEuro(p.admin_fee, locale)} testId={`${k}-admin-fee`} />
                  <Row label={translate('calculator.lead_time')} value={days(p[`max_leadtime_sell_${k}`])} testId={`${k}-lead-time`} />
                  {seller && (
                    <>
                      <Divider sx={{ my: 1 }} />
                      <Row label={translate('calculator.list_price')} value={euro(p[`total_${k}_sell`])} testId={`${k}-list`} />
                      <Row label={translate('calculator.offer')} value={euro(offer)} testId={`${k}-offer`} />
                      <Row label={translate('calculator.buy_price')} value={euro(buy)} testId={`${k}-buy`} />
                      <Row label={translate('calculator.buy_lead_time')} value={days(p[`max_leadtime_buy_${k}`])} />
                      <Row
                        label={translate('calculator.margin')}
                        value={buy === null ? translate('calculator.not_available') : formatEuro(round2(offer - buy), locale)}
                        testId={`${k}-margin`}
                      />
                    </>
                  )}
                  {(kind === 'enduser' || kind === 'visitor') && (
                    <Button
                      fullWidth
                      variant="contained"
                      sx={{ mt: 1 }}
                      data-testid={`request-${k}`}
                      onClick={() =>
                        start({ costRequest: request, shipmentType: 'palletExpress', shipmentClass: cls, priceList: p, palletData: data.palletData })
                      }
                    >
                      {translate('calculator.request_class', { class: cls })}
                    </Button>
                  )}
                </CardContent>
              </Card>
            );
          })}
          {data.palletData && (
            <Table size="small" aria-label={translate('calculator.pallets')}>
              <TableHead>
                <TableRow>
                  <TableCell>#</TableCell>
                  <TableCell>{translate('calculator.measure')}</TableCell>
                  <TableCell align="right">{translate('calculator.weight')}</TableCell>
                  <TableCell>{translate('calculator.band')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.palletData.map((r) => (
                  <TableRow key={r.row}>
                    <TableCell>{r.row}</TableCell>
                    <TableCell>{r.measure}</TableCell>
                    <TableCell align="right">{formatNumber(r.weight, locale)} kg</TableCell>
                    <TableCell>{r.type}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Box>
      )}

      {c && (
        <Card variant="outlined" sx={{ mt: 1 }} data-testid="result-standard">
          <CardContent sx={{ pb: '12px !important' }}>
            <Row label={translate('calculator.shipment_cost')} value={formatEuro(c.shipment_cost, locale)} testId="standard-cost" />
            <Row label={translate('calculator.admin_fee')} value={formatEuro(c.admin_fee, locale)} testId="standard-admin-fee" />
            <Row strong label={translate('calculator.total')} value={formatEuro(c.totla, locale)} testId="standard-total" />
            <Row label={translate('calculator.lead_time')} value={days(c.lead_time)} testId="standard-lead-time" />
            {data.units && (
              <Row
                label={translate('calculator.chargeable_weight')}
                value={`${formatNumber(data.units.chargeable_weight, locale)} kg (${translate('calculator.ratio_used')} ${formatNumber(data.units.ratio, locale)})`}
                testId="standard-chargeable"
              />
            )}
            {seller && (
              <>
                <Divider sx={{ my: 1 }} />
                <Row label={translate('calculator.lane_one')} value={euro(c.final_cost_lane_one)} testId="standard-lane-one" />
                <Row label={translate('calculator.lane_two')} value={euro(c.final_cost_lane_two)} testId="standard-lane-two" />
              </>
            )}
            {(kind === 'enduser' || kind === 'visitor') && (
              <Button
                fullWidth
                variant="contained"
                sx={{ mt: 1 }}
                data-testid="request-standard"
                onClick={() => start({ costRequest: request, shipmentType: 'standard', standardPriceList: c, units: data.units })}
              >
                {translate('calculator.request_standard')}
              </Button>
            )}
          </CardContent>
        </Card>
      )}

      <Button fullWidth variant="outlined" startIcon={<PictureAsPdfIcon />} onClick={downloadPdf} disabled={pdfBusy} sx={{ mt: 1 }} data-testid="quote-pdf">
        {translate('calculator.download_pdf')}
      </Button>
      {pdfError && (
        <Alert severity="error" sx={{ mt: 1 }} data-testid="quote-pdf-error">
          {pdfError}
        </Alert>
      )}
      <Button
        fullWidth
        onClick={() => setOpen(!open)}
        endIcon={open ? <ExpandLess /> : <ExpandMore />}
        sx={{ mt: 1 }}
        aria-expanded={open}
        data-testid="breakdown-toggle"
      >
        {translate(open ? 'calculator.hide_breakdown' : 'calculator.show_breakdown')}
      </Button>
      <Collapse in={open} unmountOnExit>
        <Table size="small" data-testid="breakdown">
          <TableBody>
            {data.breakdown.map((l, i) => (
              <TableRow key={i}>
                <TableCell sx={{ pl: 0 }}>{l.label}</TableCell>
                <TableCell align="right" sx={{ pr: 0, whiteSpace: 'nowrap' }}>
                  {l.amount === null ? '' : formatEuro(l.amount, locale)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Collapse>
    </Paper>
  );
}
