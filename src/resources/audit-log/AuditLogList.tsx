import { useMemo } from 'react';
import { AutocompleteInput, BooleanInput, List, TopToolbar, NumberInput, ReferenceInput, SelectInput, useTranslate, type RaRecord } from 'react-admin';
import { RESOURCES } from '../../../model/registry';
import type { ResourceDecl } from '../../../model/resource';
import { AUDIT_ACTIONS, AUDIT_TEXTS, actionLabel, langOf, resourceLabel } from '../../components/audit/format';
import { AuditTable } from '../../components/audit/AuditTable';
import { AUDIT_RESOURCE } from '../../components/audit/ActivitySection';
import { EmptyState } from '../../components/table/EmptyState';
import { ListTitle } from '../../components/table/ListTitle';
import { useFormat } from '../../components/format';
import { PortalDateInput } from '../../components/dates/inputs';
import { ExportMenu } from '../../components/table/ExportMenu';

const F = `resources.${AUDIT_RESOURCE}.fields`;

/** Every table an entry may name: the declared ones (audit log aside) and those the audit texts know, by label. */
function resourceChoices(lang: ReturnType<typeof langOf>) {
  const tables = new Set<string>([
    ...(RESOURCES as readonly ResourceDecl[]).map((r) => r.table).filter((t) => t !== 'audit_log'),
    ...Object.keys(AUDIT_TEXTS[lang].resources),
  ]);
  return [...tables].map((t) => ({ id: t, name: resourceLabel(t, lang) })).sort((a, b) => a.name.localeCompare(b.name, lang));
}

const fullName = (r: RaRecord) => [r.first_name, r.last_name].filter(Boolean).join(' ') || r.email;

/**
 * /audit-log (issue 19): the audit log for admins (every entry) and carriers (their tenant's; the server
 * decides, the path comes from the declaration by role). Filters: resource, id, user, company, action and
 * the dates from/to (Rome days), sign-ins shown on request; newest first, paged.
 */
export function AuditLogList() {
  const translate = useTranslate();
  const { locale } = useFormat();
  const lang = langOf(locale);
  const resources = useMemo(() => resourceChoices(lang), [lang]);
  const filters = [
    <SelectInput key="resource" source="resource" label={`${F}.resource`} choices={resources} alwaysOn />,
    <NumberInput key="resource_id" source="resource_id" label={`${F}.resource_id`} min={1} step={1} alwaysOn sx={{ maxWidth: 140 }} />,
    <ReferenceInput key="user" source="user_id" reference="user-management" alwaysOn>
      <AutocompleteInput label={`${F}.user_id`} optionText={fullName} filterToQuery={(search: string) => ({ search })} sx={{ minWidth: 220 }} />
    </ReferenceInput>,
    <ReferenceInput key="company" source="company_id" reference="companies" alwaysOn>
      <AutocompleteInput label={`${F}.company_id`} optionText="legal_name" filterToQuery={(search: string) => ({ search })} sx={{ minWidth: 220 }} />
    </ReferenceInput>,
    <SelectInput key="action" source="action" label={`${F}.action`} choices={AUDIT_ACTIONS.map((a) => ({ id: a, name: actionLabel(a, lang) }))} alwaysOn />,
    <PortalDateInput key="from" source="from" label="audit.from" alwaysOn />,
    <PortalDateInput key="to" source="to" label="audit.to" alwaysOn />,
    // Sign-ins drown the changes (issue 35): left out until asked for (the server's `sign_ins`, false by default here).
    <BooleanInput key="sign_ins" source="sign_ins" label="audit.sign_ins" alwaysOn sx={{ alignSelf: 'center', ml: 1 }} />,
  ];
  return (
    <>
      <ListTitle>{translate(`resources.${AUDIT_RESOURCE}.name`, { smart_count: 2 })}</ListTitle>
      <List
        resource={AUDIT_RESOURCE}
        title={translate(`resources.${AUDIT_RESOURCE}.name`, { smart_count: 2 })}
        sort={{ field: 'at', order: 'DESC' }}
        perPage={25}
        filters={filters}
        filterDefaultValues={{ sign_ins: false }}
        actions={
          <TopToolbar>
            <ExportMenu />
          </TopToolbar>
        }
        empty={false}
        sx={{ '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { overflowX: 'auto' } }}
      >
        <AuditTable empty={<EmptyState />} />
      </List>
    </>
  );
}
