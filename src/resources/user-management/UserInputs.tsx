import { useEffect, useMemo, type ReactNode } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import {
  AutocompleteInput,
  PasswordInput,
  ReferenceInput,
  SelectInput,
  TextInput,
  required,
  useGetIdentity,
  useGetOne,
  useTranslate,
  type Validator,
} from 'react-admin';
import { Box, Typography } from '@mui/material';
import { rolesACarrierAssigns, rolesForCompanyRole, stripPhone, userFields, type UserField } from '../../../model/users';
import { validatorsOf } from '../../components/declared/validators';
import { USER_ROLE } from '../../../model/roles';
import { LookupPicker } from '../companies/lookups';

export type UserSection = 'settings' | 'information' | 'notes';
export type CallerKind = 'admin' | 'carrier';
const T = 'resources.user-management';

function Grid({ children }: { children: ReactNode }) {
  return <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2, width: '100%' }}>{children}</Box>;
}

/** The roles the form offers for the chosen company: those that fit it (admin), those a carrier may give (carrier). */
function useRoleChoices(kind: CallerKind): number[] {
  const { identity } = useGetIdentity();
  const companyId = useWatch({ name: 'company_id' });
  const { data: company } = useGetOne('companies', { id: companyId }, { enabled: !!companyId });
  // One list per company (and caller): the role input's effect runs when the choices change, not on every render.
  const loaded = !!companyId && !!company;
  const companyRole = company?.company_role_id;
  const own = Number(companyId) === Number(identity?.company_id);
  return useMemo(() => {
    if (!loaded) return [];
    return kind === 'carrier' ? rolesACarrierAssigns(own) : rolesForCompanyRole(companyRole);
  }, [loaded, kind, own, companyRole]);
}

function RoleInput({ kind, locked }: { kind: CallerKind; locked?: boolean }) {
  const translate = useTranslate();
  const roles = useRoleChoices(kind);
  const role = useWatch({ name: 'role_id' });
  const { setValue } = useFormContext();
  useEffect(() => {
    // A company that takes one role only (an end-user company) gets it; a role that no longer fits is cleared.
    if (locked || !roles.length) return;
    if (roles.length === 1 && Number(role) !== roles[0]) setValue('role_id', roles[0], { shouldDirty: true });
    else if (role && !roles.includes(Number(role))) setValue('role_id', null, { shouldDirty: true });
  }, [roles, role, locked, setValue]);
  const current = role ? [Number(role)] : [];
  const ids = locked ? current : roles;
  return (
    <SelectInput
      source="role_id"
      choices={ids.map((id) => ({ id, name: translate(`${T}.roles.${id}`) }))}
      validate={locked ? undefined : required()}
      disabled={locked || !roles.length}
      helperText={!roles.length && !locked ? translate(`${T}.pick_company_first`) : undefined}
      fullWidth
      data-testid="input-role_id"
    />
  );
}

/** The declaration's rules for an input (the server checks the same). */
const v = (name: UserField, ...more: Validator[]) => [...validatorsOf(userFields[name]), ...more];
const sameAsPassword: Validator = (value: unknown, all: Record<string, unknown>) =>
  (value || all.password) && value !== all.password ? `${T}.password_mismatch` : undefined;

/**
 * The inputs of a user, by section, shared by the create steps and the edit modal (accounts document
 * §2, §5): company and role (an admin's choice; a carrier's own company, or one of its end-user
 * companies for an Enduser), language; the person; the notes. `locked` keeps role and company as they
 * are (one's own account, where the server refuses a change).
 */
export function UserInputs({
  sections,
  kind,
  mode,
  locked = false,
  headings = false,
}: {
  sections: UserSection[];
  kind: CallerKind;
  mode: 'create' | 'edit';
  locked?: boolean;
  headings?: boolean;
}) {
  const translate = useTranslate();
  const role = useWatch({ name: 'role_id' });
  const creating = mode === 'create';
  const phone = {
    format: (v: unknown) => (mode === 'edit' ? (stripPhone(v) ?? '') : (v ?? '')),
    parse: (v: string) => (mode === 'edit' ? String(stripPhone(v)) : v),
  };
  const blocks: Record<UserSection, ReactNode> = {
    settings: (
      <Grid>
        <ReferenceInput source="company_id" reference="companies" sort={{ field: 'legal_name', order: 'ASC' }} perPage={50}>
          <AutocompleteInput
            optionText="legal_name"
            filterToQuery={(search: string) => ({ search })}
            validate={kind === 'admin' ? required() : undefined}
            disabled={locked}
            fullWidth
            data-testid="input-company_id"
          />
        </ReferenceInput>
        <RoleInput kind={kind} locked={locked} />
        <LookupPicker source="language_id" path="languages_list" validate={v('language_id')} />
        {Number(role) === USER_ROLE.SUPPORT ? (
          <SelectInput source="support_role_id" choices={[1, 2, 3].map((id) => ({ id, name: translate(`${T}.support_roles.${id}`) }))} fullWidth />
        ) : null}
      </Grid>
    ),
    information: (
      <Grid>
        <TextInput source="title" validate={v('title')} fullWidth />
        <TextInput source="email" type="email" validate={v('email')} fullWidth />
        <TextInput source="first_name" validate={v('first_name')} fullWidth />
        <TextInput source="last_name" validate={v('last_name')} fullWidth />
        <TextInput source="address" validate={v('address')} fullWidth />
        <TextInput source="city" validate={v('city')} fullWidth />
        <TextInput source="postal_code" validate={v('postal_code')} fullWidth />
        <LookupPicker source="country_id" path="country_list" validate={v('country_id')} />
        <TextInput source="phone" validate={v('phone')} {...phone} fullWidth />
        <TextInput source="phone_2" validate={v('phone_2')} {...phone} fullWidth />
        {/* Optional on create too (issue 35): left empty, the server mails the new user a link to choose it. */}
        <PasswordInput
          source="password"
          autoComplete="new-password"
          fullWidth
          validate={v('password')}
          helperText={translate(creating ? `${T}.password_invite` : `${T}.password_optional`)}
        />
        <PasswordInput source="password_confirmation" autoComplete="new-password" fullWidth validate={[sameAsPassword]} />
        <TextInput source="support_email" type="email" validate={v('support_email')} fullWidth />
        <TextInput source="support_skype" validate={v('support_skype')} fullWidth />
      </Grid>
    ),
    notes: <TextInput source="notes" multiline minRows={4} validate={v('notes')} fullWidth />,
  };
  return (
    <Box sx={{ width: '100%' }}>
      {sections.map((s) => (
        <Box key={s} data-section={s}>
          {headings ? (
            <Typography variant="subtitle1" sx={{ fontWeight: 600, mt: 1, mb: 1 }}>
              {translate(`${T}.steps.${s}`)}
            </Typography>
          ) : null}
          {blocks[s]}
        </Box>
      ))}
    </Box>
  );
}

export const USER_STEP_FIELDS: Record<UserSection, string[]> = {
  settings: ['company_id', 'role_id', 'language_id', 'support_role_id'],
  information: [
    'title',
    'email',
    'first_name',
    'last_name',
    'address',
    'city',
    'postal_code',
    'country_id',
    'phone',
    'phone_2',
    'password',
    'password_confirmation',
    'support_email',
    'support_skype',
  ],
  notes: ['notes'],
};

/** What travels: no derived names, and no empty password (an edit keeps the old one). */
export function userTransform(data: Record<string, unknown>) {
  const out: Record<string, unknown> = { ...data };
  for (const k of [
    'company_legal_name',
    'company_role_id',
    'company_carrier_id',
    'role_name',
    'language_name',
    'country_name',
    'image',
    'created_at',
    'updated_at',
    'status_id',
    'id',
  ])
    delete out[k];
  if (!out.password) {
    delete out.password;
    delete out.password_confirmation;
  }
  return out;
}
