import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { RecordContextProvider, useDataProvider, useNotify, useRefresh, useTranslate } from 'react-admin';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Chip,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import UploadIcon from '@mui/icons-material/Upload';
import type { FieldDef, FieldsDecl } from '../../../model/fields';
import type { PortalDataProvider } from '../../dataProvider';
import type { ImportCheck } from '../../dataProvider/declared';
// The tariff screens' check-then-publish dialog (issue 20), reused as it is with this resource's own check
// panels: the same upload progress, error table, Pubblica/Annulla and "choose another file" flow
// (components/upload; the tariff screens pass their own panels the same way).
import { UploadDialog } from '../upload/UploadDialog';
import { useFormat } from '../format';
import { COMPANIES_LOOKUP } from './DeclaredFilters';
import { YesNoText, fieldComponentOf } from './DeclaredColumns';

interface Company {
  id: number;
  legal_name: string;
}

/**
 * "Importa" (issue 34, a declaration with `import: true`, offered to the kinds that may create): the file is
 * checked first (`POST {api}/import` with `dry_run=1`: nothing stored) and the dialog shows its bad cells
 * (row, column, message) or what a publish would do (counts and changed rows); "Pubblica" sends the same file
 * without dry_run (one transaction on the server), its message is the toast and the list reloads. "Scarica
 * modello" saves the header row the server expects, in the user's language. An admin importing into a
 * company-tenancy resource names the company first (the server requires it); changing it asks for a new check.
 */
export function DeclaredImport({ resource, fields, company }: { resource: string; fields: FieldsDecl; company: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const [open, setOpen] = useState(false);
  const [companyId, setCompanyId] = useState<number | null>(null);
  const companies = useQuery({
    queryKey: ['lookup', COMPANIES_LOOKUP],
    queryFn: ({ signal }) => dataProvider.lookup<{ data: Company[] }>(COMPANIES_LOOKUP, undefined, signal).then((a) => a?.data ?? []),
    enabled: open && company,
  });
  const template = async () => {
    try {
      await dataProvider.importTemplate(resource, 'xlsx');
    } catch {
      notify('declared.import.template_failed', { type: 'error' });
    }
  };
  const name = translate(`resources.${resource}.name`, { smart_count: 2 });
  return (
    <>
      <Button size="small" startIcon={<UploadIcon />} onClick={() => setOpen(true)} data-testid="import">
        {translate('declared.import.button')}
      </Button>
      {open ? (
        <UploadDialog<ImportCheck>
          open={open}
          title={translate('declared.import.title', { name })}
          help={translate('declared.import.help')}
          ready={!company || companyId !== null}
          checkKey={String(companyId)}
          check={(file, onProgress) => dataProvider.importCheck(resource, { file, companyId, onProgress })}
          send={async (file, onProgress) => {
            await dataProvider.importPublish(resource, { file, companyId, onProgress });
            setOpen(false);
            refresh();
          }}
          renderCheck={(check) => <ImportCheckPanels resource={resource} fields={fields} check={check} />}
          onClose={() => setOpen(false)}
        >
          <Stack spacing={2} sx={{ mb: 1 }}>
            <Box>
              <Link component="button" type="button" onClick={() => void template()} data-testid="import-template">
                {translate('declared.import.template')}
              </Link>
            </Box>
            {company ? (
              <Autocomplete
                options={companies.data ?? []}
                loading={companies.isPending}
                getOptionLabel={(c) => c.legal_name}
                value={companies.data?.find((c) => c.id === companyId) ?? null}
                onChange={(_e, c) => setCompanyId(c?.id ?? null)}
                renderInput={(params) => (
                  <TextField {...params} label={translate('declared.company')} helperText={translate('declared.import.company_help')} required />
                )}
                data-testid="import-company"
              />
            ) : null}
          </Stack>
        </UploadDialog>
      ) : null}
    </>
  );
}

const head = { fontWeight: 600, whiteSpace: 'nowrap' } as const;

/** A clean check: the three counts, whether anything would change, and the changed rows with their fields before → after. */
export function ImportCheckPanels({ resource, fields, check }: { resource: string; fields: FieldsDecl; check: ImportCheck }) {
  const translate = useTranslate();
  const { locale } = useFormat();
  const count = (n: number) => new Intl.NumberFormat(locale, { useGrouping: 'always' } as Intl.NumberFormatOptions).format(n);
  const { added, changed } = check.summary;
  const none = added + changed === 0;
  const labelOf = (f: string) => (fields[f] ? translate(`resources.${resource}.fields.${f}`, { _: f }) : f);
  const text = (f: string, v: unknown) => <ValueInWords field={fields[f]} name={f} value={v} />;
  return (
    <Stack spacing={2} data-testid="import-check">
      <Box data-testid="check-summary">
        <Typography variant="subtitle1" component="h3" fontWeight={600}>
          {translate('declared.import.summary_title')}
        </Typography>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', my: 1 }} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {(['added', 'changed', 'unchanged'] as const).map((k) => (
            <li key={k}>
              <Chip
                label={translate(`tariff_check.${k}`, { count: count(check.summary[k]), smart_count: check.summary[k] })}
                variant={check.summary[k] && k !== 'unchanged' ? 'filled' : 'outlined'}
                data-testid={`summary-${k}`}
              />
            </li>
          ))}
        </Stack>
        <Alert severity={none ? 'warning' : 'info'} data-testid={none ? 'check-no-change' : 'check-not-saved'}>
          {translate(none ? 'declared.import.no_change' : 'declared.import.not_saved')}
        </Alert>
      </Box>
      {check.changes.length > 0 && (
        <Box data-testid="check-changes">
          <Typography variant="subtitle1" component="h3" fontWeight={600}>
            {translate('tariff_check.changes_title')}
          </Typography>
          {added + changed > check.changes.length && (
            <Typography variant="body2" color="text.secondary">
              {translate('tariff_check.changes_more', { shown: count(check.changes.length), total: count(added + changed) })}
            </Typography>
          )}
          {/* The table scrolls inside its own box: a long value never widens the page on a phone. */}
          <TableContainer sx={{ maxHeight: 360 }} tabIndex={0} aria-label={translate('tariff_check.changes_caption')}>
            <Table size="small" stickyHeader data-testid="check-changes-table">
              <caption style={visuallyHidden as React.CSSProperties}>{translate('tariff_check.changes_caption')}</caption>
              <TableHead>
                <TableRow>
                  <TableCell sx={head} align="right">
                    {translate('declared.import.row')}
                  </TableCell>
                  <TableCell sx={head}>{translate('declared.import.change')}</TableCell>
                  <TableCell sx={head}>{translate('declared.import.fields')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {check.changes.map((ch, i) => (
                  <TableRow key={i} data-kind={ch.action}>
                    <TableCell align="right" sx={{ verticalAlign: 'top' }}>
                      {ch.row}
                    </TableCell>
                    <TableCell sx={{ verticalAlign: 'top' }}>
                      <Typography variant="body2" fontWeight={600}>
                        {translate(ch.action === 'add' ? 'declared.import.added' : 'declared.import.changed')}
                      </Typography>
                      {ch.key !== null && ch.key !== undefined && ch.key !== '' ? (
                        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                          {String(ch.key)}
                        </Typography>
                      ) : null}
                    </TableCell>
                    <TableCell sx={{ verticalAlign: 'top' }}>
                      <Box component="ul" sx={{ m: 0, pl: 2 }}>
                        {Object.entries(ch.fields ?? {}).map(([f, v]) => (
                          <Typography component="li" variant="body2" key={f} sx={{ overflowWrap: 'anywhere' }}>
                            {labelOf(f)}:{' '}
                            {ch.action === 'add' ? (
                              text(f, v.after)
                            ) : (
                              <>
                                <Box component="span" sx={visuallyHidden}>
                                  {translate('tariff_check.before')}:{' '}
                                </Box>
                                <del>{text(f, v.before)}</del>
                                <span aria-hidden="true"> → </span>
                                <Box component="span" sx={visuallyHidden}>
                                  , {translate('tariff_check.after')}:{' '}
                                </Box>
                                <Box component="ins" sx={{ fontWeight: 700 }}>
                                  {text(f, v.after)}
                                </Box>
                              </>
                            )}
                          </Typography>
                        ))}
                      </Box>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </Box>
      )}
    </Stack>
  );
}

/**
 * One value of a change as the list and the show page write it: a choice by its label ("Ritiro", not
 * `pickup`), a country by its name ("Italia", not 110), money and dates in the user's language, yes/no in
 * words; "∅" for nothing. The list's cell components read it from a record context of its own.
 */
function ValueInWords({ field, name, value }: { field?: FieldDef; name: string; value: unknown }) {
  if (value === null || value === undefined || value === '') return <>∅</>;
  if (!field) return <>{String(value)}</>;
  const Component = field.type === 'flag' || field.type === 'boolean' ? YesNoText : fieldComponentOf(field);
  return (
    <RecordContextProvider value={{ id: 0, [name]: value }}>
      <Component source={name} />
    </RecordContextProvider>
  );
}
