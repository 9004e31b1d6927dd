import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Title, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { stackedOnPhone, phoneLabel } from '../../components/table/PhoneCards';
import { Alert, Box, Button, CircularProgress, MenuItem, Paper, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import UploadIcon from '@mui/icons-material/UploadFile';
import type { PortalDataProvider } from '../../dataProvider';
import { saveBlob } from '../../components/download';
import { useSellers } from '../calculator/lookups';

const KEYS = [
  'cs_express_hub_costs',
  'cs_express_island_zones',
  'cs_express_hub_codes',
  'cs_express_special_zones',
  'standard_special_zones',
  'standard_no_passage',
  'express_rate_sheet',
  'standard_rate_sheet',
] as const;
type Key = (typeof KEYS)[number];

interface SettingsView {
  visitor_company_id: number | null;
  visitor_company: { id: number; legal_name: string } | null;
  templates: Record<Key, { name: string; url: string } | null>;
}

/** /portal-settings (admins, server.md §9): the carrier of visitors' quotes and the template files. */
export default function PortalSettingsPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const settings = useQuery({ queryKey: ['admin', 'settings'], queryFn: () => dataProvider.portalSettings<SettingsView>() });
  const download = (url: string, name: string) => dataProvider.download(url).then((blob) => saveBlob(blob, name));
  const sellers = useSellers(true);
  const [visitor, setVisitor] = useState<number | ''>('');
  const [files, setFiles] = useState<Partial<Record<Key, File>>>({});
  const [removals, setRemovals] = useState<Key[]>([]);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (settings.data) setVisitor(settings.data.visitor_company_id ?? '');
  }, [settings.data]);

  if (settings.isPending) return <CircularProgress />;
  if (settings.error) return <Alert severity="error">{translate((settings.error as Error).message, { _: (settings.error as Error).message })}</Alert>;
  const view = settings.data!;

  const save = async () => {
    setBusy(true);
    setAlert(null);
    setErrors({});
    const form = new FormData();
    form.append('visitor_company_id', visitor === '' ? '' : String(visitor));
    for (const k of removals) form.append('remove_templates[]', k);
    for (const [k, f] of Object.entries(files)) if (f) form.append(k, f, f.name);
    try {
      const r = await dataProvider.updatePortalSettings<SettingsView>(form);
      queryClient.setQueryData(['admin', 'settings'], r.data);
      setFiles({});
      setRemovals([]);
      notify(r.message || translate('portalSettings.saved'), { type: 'success' });
    } catch (err: any) {
      setErrors(err?.body?.errors ?? {});
      setAlert(String(err?.message ?? 'ra.notification.http_error'));
    } finally {
      setBusy(false);
    }
  };

  const options = sellers.data ?? (view.visitor_company ? [view.visitor_company] : []);
  return (
    // One column that may shrink below its content's width (a grid item's minimum is its content: the table pushed the page to 417 px on a phone).
    <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 2, maxWidth: 1000 }}>
      <Title title={translate('portalSettings.title')} />
      <Typography variant="h5" component="h1">
        {translate('portalSettings.title')}
      </Typography>
      {alert && (
        <Alert severity="error" variant="filled" role="alert" data-testid="settings-alert">
          {translate(alert, { _: alert })}
        </Alert>
      )}

      <Paper sx={{ p: 2, display: 'grid', gap: 1.5 }}>
        <Typography variant="h6" component="h2">
          {translate('portalSettings.visitor_section')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('portalSettings.visitor_help')}
        </Typography>
        <TextField
          select
          size="small"
          label={translate('portalSettings.visitor_company')}
          value={visitor}
          name="visitor_company_id"
          onChange={(e) => setVisitor(Number(e.target.value) || '')}
          sx={{ maxWidth: 480 }}
          error={!!errors.visitor_company_id}
          helperText={errors.visitor_company_id?.[0]}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">{translate('portalSettings.visitor_none')}</MenuItem>
          {options.map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.legal_name}
            </MenuItem>
          ))}
        </TextField>
      </Paper>

      <Paper sx={{ p: 2 }}>
        <Typography variant="h6" component="h2">
          {translate('portalSettings.templates_section')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('portalSettings.templates_help')}
        </Typography>
        {/* Cards on a phone (PhoneCards.tsx). */}
        <Table size="small" sx={stackedOnPhone}>
          <TableHead>
            <TableRow>
              <TableCell>{translate('portalSettings.template')}</TableCell>
              <TableCell>{translate('portalSettings.current')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {KEYS.map((k) => {
              const t = view.templates[k];
              const removing = removals.includes(k);
              return (
                <TableRow key={k} data-testid={`template-${k}`}>
                  <TableCell>{translate(`portalSettings.templates.${k}`)}</TableCell>
                  <TableCell {...phoneLabel(translate('portalSettings.current'))}>
                    {t ? (
                      <Button size="small" onClick={() => download(t.url, t.name)} sx={{ textTransform: 'none' }}>
                        {t.name}
                      </Button>
                    ) : (
                      <Typography variant="body2" color="text.secondary">
                        {translate('portalSettings.none')}
                      </Typography>
                    )}
                    {removing && (
                      <Typography variant="caption" color="error" display="block">
                        {translate('portalSettings.to_remove')}
                      </Typography>
                    )}
                    {files[k] && (
                      <Typography variant="caption" display="block">
                        {translate('portalSettings.chosen', { name: files[k]!.name })}
                      </Typography>
                    )}
                    {errors[k] && (
                      <Typography variant="caption" color="error" display="block">
                        {errors[k][0]}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }} {...phoneLabel('')}>
                    <Button size="small" component="label" startIcon={<UploadIcon />}>
                      {translate('portalSettings.replace')}
                      <input
                        hidden
                        type="file"
                        name={k}
                        accept=".xls,.xlsx,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                        onChange={(e) => setFiles({ ...files, [k]: e.target.files?.[0] })}
                      />
                    </Button>
                    {t && (
                      <Button size="small" color="error" onClick={() => setRemovals(removing ? removals.filter((x) => x !== k) : [...removals, k])}>
                        {translate(removing ? 'portalSettings.undo_remove' : 'portalSettings.remove')}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Paper>
      <Box>
        <Button variant="contained" onClick={save} disabled={busy} data-testid="settings-save">
          {translate('portalSettings.save')}
        </Button>
      </Box>
    </Box>
  );
}
