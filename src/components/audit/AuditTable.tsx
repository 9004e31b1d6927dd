import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { DataTable, useDataProvider, useTranslate } from 'react-admin';
import { StackedDataTable } from '../table/PhoneCards';
import { useQuery } from '@tanstack/react-query';
import type { PortalDataProvider } from '../../dataProvider';
import { Box, Link, Typography } from '@mui/material';
import { useFormat } from '../format';
import { actionLabel, formatChanges, langOf, linkOf, resourceLabel, type AuditEntry } from './format';

/** Who did it: the name and, under it, the role (the user screens' role names); "—" for an unknown e-mail's failed sign-in. */
function Who({ e }: { e: AuditEntry }) {
  const translate = useTranslate();
  if (!e.user_name) return <>{translate('audit.no_changes')}</>;
  return (
    <Box>
      <Typography variant="body2">{e.user_name}</Typography>
      {e.user_role_id ? (
        <Typography variant="caption" color="text.secondary" data-testid="audit-role">
          {translate(`resources.user-management.roles.${e.user_role_id}`, { _: String(e.user_role_id) })}
        </Typography>
      ) : null}
    </Box>
  );
}

/** The id, a link to the thing's screen where there is one (linkOf). */
function IdCell({ e }: { e: AuditEntry }) {
  const translate = useTranslate();
  const { locale } = useFormat();
  const to = linkOf(e);
  const text = e.resource_id === null ? '' : `#${e.resource_id}`;
  if (!to) return <>{text}</>;
  const what = `${resourceLabel(e.resource, langOf(locale))} ${text}`.trim();
  return (
    <Link component={RouterLink} to={to} aria-label={translate('audit.open', { what })} data-testid="audit-link">
      {text || resourceLabel(e.resource, langOf(locale))}
    </Link>
  );
}

/** Coded columns whose names the user screens' messages hold. */
const CODED: Record<string, string> = {
  'users.role_id': 'resources.user-management.roles',
  'users.support_role_id': 'resources.user-management.support_roles',
  'companies.company_role_id': 'resources.companies.roles',
};

function Changes({ e }: { e: AuditEntry }) {
  const translate = useTranslate();
  const { locale } = useFormat();
  const dataProvider = useDataProvider<PortalDataProvider>();
  // A country reads as its name in the user's language ("Paese: Italia"), not its id; the list is the shared lookup.
  const withCountry = (e.changes ?? []).some((c) => c.field === 'country_id');
  const countries = useQuery({ queryKey: ['lookup', 'country_list'], queryFn: () => dataProvider.countries(), staleTime: 60_000, enabled: withCountry });
  // Role codes read as the user screens name them ("Ruolo: Vettore → Utente vettore", not "3 → 5").
  const name = (table: string, field: string, value: unknown) => {
    if (field === 'country_id') {
      const c = countries.data?.find((x) => String(x.id) === String(value));
      return c ? ((c as unknown as Record<string, string | null>)[locale] ?? c.en) : undefined;
    }
    const key = CODED[`${table}.${field}`];
    return key ? translate(`${key}.${String(value)}`, { _: '' }) || undefined : undefined;
  };
  const lines = formatChanges(e, langOf(locale), name);
  if (!lines.length) return <>{translate('audit.no_changes')}</>;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2, minWidth: 240 }} data-testid="audit-changes">
      {lines.map((line, i) => (
        <Typography component="li" variant="body2" key={i} sx={{ overflowWrap: 'anywhere' }}>
          {line}
        </Typography>
      ))}
    </Box>
  );
}

/**
 * The entries of the list in context (resource `audit-log`), newest first: when, who (name and role), the
 * company, the action and the resource in the user's language, the id (a link where a screen exists) and the
 * changes in words. `compact` (the "Attività" sections, already about one thing) leaves out company, resource and id.
 */
export function AuditTable({ compact = false, empty }: { compact?: boolean; empty?: ReactNode }) {
  const fmt = useFormat();
  const lang = langOf(fmt.locale);
  const columns = [
    <DataTable.Col key="at" source="at" render={(e: AuditEntry) => <span style={{ whiteSpace: 'nowrap' }}>{fmt.dateTime(e.at)}</span>} />,
    <DataTable.Col key="who" source="user_name" label="audit.who" disableSort render={(e: AuditEntry) => <Who e={e} />} />,
    compact ? null : <DataTable.Col key="company" source="company_name" disableSort />,
    <DataTable.Col key="action" source="action" disableSort render={(e: AuditEntry) => actionLabel(e.action, lang)} />,
    compact ? null : <DataTable.Col key="resource" source="resource" disableSort render={(e: AuditEntry) => resourceLabel(e.resource, lang)} />,
    compact ? null : <DataTable.Col key="id" source="resource_id" disableSort render={(e: AuditEntry) => <IdCell e={e} />} />,
    <DataTable.Col key="changes" source="changes" label="audit.changes" disableSort render={(e: AuditEntry) => <Changes e={e} />} />,
  ].filter(Boolean);
  return (
    // Cards on a phone (PhoneCards.tsx).
    <StackedDataTable bulkActionButtons={false} rowClick={false} empty={empty} data-testid="audit-table" sx={{ '& td': { verticalAlign: 'top' } }}>
      {columns}
    </StackedDataTable>
  );
}
