import { useEffect, useRef, type ReactNode } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import {
  AutocompleteInput,
  BooleanInput,
  ImageField,
  ImageInput,
  SelectInput,
  TextInput,
  required,
  useGetIdentity,
  useNotify,
  useRecordContext,
  useTranslate,
  type Validator,
} from 'react-admin';
import { Box, InputAdornment, Typography } from '@mui/material';
import {
  COMBO_CBM_RATIOS,
  COMBO_LM_RATIOS,
  COMPANY_TYPES,
  FUEL_PLAN_FIELDS,
  LOGO_LIMIT_CREATE,
  LOGO_LIMIT_UPDATE,
  companyFields,
  isCarrierLike,
  isEnduserCompany,
  type CompanyField,
} from '../../../model/companies';
import { validatorsOf } from '../../components/declared/validators';
import { DecimalInput } from '../../components/forms/DecimalInput';
import { COMPANY_ROLE } from '../../../model/roles';
import { CreatableTextInput, LookupPicker, useLookup, type Row } from './lookups';
import { FuelPlanInputs } from './FuelPlan';

export type CompanySection = 'settings' | 'details' | 'carrier' | 'enduser';
export type CallerKind = 'admin' | 'carrier';

const T = 'resources.companies';
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
/** What the city and province inputs store of a lookup row (made once: CreatableTextInput works out its options per answer). */
const cityOf = (r: Row) => String(r.city ?? r.name);
const provinceOf = (r: Row) => String(r.province ?? r.sigla ?? r.name);

/**
 * A new company's starting ratios (issue 35: step 3 required them with no default). The documents' choice
 * lists are CBM 250-500 and LM 1500/1750 kg; pricing.md 3.1 prices with 250 (CBM) and 1750 (LM) when a
 * company has none, so a new company starts from exactly what it would be priced with.
 */
export const COMPANY_DEFAULTS = { combo_cbm_ratio: 250, combo_lm_ratio: 1750 } as const;

/** The declaration's rules for an input (the server checks the same). */
const v = (name: CompanyField, ...more: Validator[]) => [...validatorsOf(companyFields[name]), ...more];

/** The document's percentage rule: when filled, greater than 0 and less than 100, with its own message. */
const percentRule =
  (message: string): Validator =>
  (value: unknown) => {
    if (value === null || value === undefined || value === '') return undefined;
    const n = Number(value);
    return Number.isFinite(n) && n > 0 && n < 100 ? undefined : message;
  };
/** A strict lower bound (a multiplier of 0 makes no sense). */
const above =
  (min: number): Validator =>
  (value: unknown) =>
    value === null || value === undefined || value === '' || Number(value) > min ? undefined : { message: 'ra.validation.minValue', args: { min } };

/** The role the form describes: the chosen one (admin), an end-user company (a carrier's new one), or the record's. */
export function useFormRole(kind: CallerKind, recordRole?: number) {
  const watched = useWatch({ name: 'company_role_id' });
  if (kind === 'carrier') return recordRole ?? COMPANY_ROLE.ENDUSER;
  return watched === undefined || watched === null || watched === '' ? undefined : Number(watched);
}

function Grid({ children }: { children: ReactNode }) {
  return <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2, width: '100%' }}>{children}</Box>;
}

/** An admin picks carriers and resellers: the companies that have end-user companies. */
function CarrierPicker({ validate }: { validate?: Validator[] }) {
  const carriers = useLookup('carriers_list');
  const resellers = useLookup('resellers_list');
  const choices = [...(carriers.data ?? []), ...(resellers.data ?? [])] as Array<{ id: number; legal_name: string }>;
  return (
    <AutocompleteInput
      source="carrier_id"
      choices={choices}
      optionText="legal_name"
      validate={validate}
      isPending={carriers.isPending}
      fullWidth
      data-testid="input-carrier_id"
    />
  );
}

/** The carrier's categories of one rate type: the chosen carrier's (admin) or the own company's (carrier). */
function CategoryPicker({ source, rateType, carrierId }: { source: string; rateType: 'EXP' | 'STD'; carrierId?: number }) {
  const translate = useTranslate();
  const { data } = useLookup('category_list', { company_id: carrierId, rate_type: rateType }, !!carrierId);
  const empty = carrierId && data && data.length === 0;
  return (
    <LookupPicker
      source={source}
      path="category_list"
      query={{ company_id: carrierId, rate_type: rateType }}
      enabled={!!carrierId}
      disabled={!carrierId}
      optionText={(r) => (r.description ? `${r.code} – ${r.description}` : String(r.code))}
      helperText={!carrierId ? translate(`${T}.pick_carrier_first`) : empty ? translate(`${T}.no_categories`) : undefined}
    />
  );
}

function Heading({ children }: { children: ReactNode }) {
  return (
    <Typography variant="subtitle1" sx={{ fontWeight: 600, mt: 1, mb: 1 }}>
      {children}
    </Typography>
  );
}

/**
 * The inputs of a company, by section, shared by the create steps and the edit modal (accounts
 * document §2, §5; server.md §9). Which appear depends on the caller and on the company's role: the role
 * only for admins, the carrier only for end-user companies, carrier settings for carriers and resellers.
 */
export function CompanyInputs({
  sections,
  kind,
  mode,
  recordRole,
  headings = false,
}: {
  sections: CompanySection[];
  kind: CallerKind;
  mode: 'create' | 'edit';
  recordRole?: number;
  headings?: boolean;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const { identity } = useGetIdentity();
  const record = useRecordContext();
  const role = useFormRole(kind, recordRole ?? (record ? Number(record.company_role_id) : undefined));
  const carrierWatch = useWatch({ name: 'carrier_id' });
  const carrierId = kind === 'carrier' ? (isEnduserCompany(role) ? identity?.company_id : undefined) : carrierWatch ? Number(carrierWatch) : undefined;
  const { setValue } = useFormContext();
  const firstCarrier = useRef(carrierWatch);
  useEffect(() => {
    // A new carrier has other categories: the ones picked for the previous carrier no longer apply.
    if (carrierWatch !== firstCarrier.current) {
      setValue('exp_category_id', null, { shouldDirty: true });
      setValue('std_category_id', null, { shouldDirty: true });
      firstCarrier.current = carrierWatch;
    }
  }, [carrierWatch, setValue]);

  const req = [required()];
  const limit = mode === 'create' ? LOGO_LIMIT_CREATE : LOGO_LIMIT_UPDATE;
  const ratios = (isEndUser: boolean) => (
    <>
      <SelectInput
        source="combo_cbm_ratio"
        choices={COMBO_CBM_RATIOS.map((v) => ({ id: v, name: translate(`${T}.ratio_kg`, { value: v }) }))}
        validate={isEndUser ? req : undefined}
        helperText={`${T}.hints.combo_cbm_ratio`}
        fullWidth
        data-testid="input-combo_cbm_ratio"
      />
      <SelectInput
        source="combo_lm_ratio"
        choices={COMBO_LM_RATIOS.map((v) => ({ id: v, name: translate(`${T}.ratio_kg`, { value: v }) }))}
        validate={isEndUser ? req : undefined}
        helperText={`${T}.hints.combo_lm_ratio`}
        fullWidth
        data-testid="input-combo_lm_ratio"
      />
    </>
  );
  const euro = { input: { endAdornment: <InputAdornment position="end">€</InputAdornment> } };
  const fees = (
    <>
      <DecimalInput source="national_admin_fee" min={0} step={0.01} validate={v('national_admin_fee')} slotProps={euro} fullWidth />
      <DecimalInput source="international_admin_fee" min={0} step={0.01} validate={v('international_admin_fee')} slotProps={euro} fullWidth />
    </>
  );

  const blocks: Record<CompanySection, ReactNode> = {
    settings: (
      <Grid>
        {kind === 'admin' ? (
          <SelectInput
            source="company_role_id"
            validate={req}
            fullWidth
            data-testid="input-company_role_id"
            choices={[1, 2, 3, 4].map((id) => ({ id, name: translate(`${T}.roles.${id}`) }))}
          />
        ) : null}
        {kind === 'admin' && isEnduserCompany(role) ? <CarrierPicker validate={req} /> : null}
        <LookupPicker source="price_category_id" path="company_price_categories_list" optionText={(r) => String(r.name)} validate={v('price_category_id')} />
        <LookupPicker source="language_id" path="languages_list" validate={v('language_id')} />
        <SelectInput source="type" choices={COMPANY_TYPES.map((id) => ({ id, name: translate(`${T}.types.${id}`) }))} fullWidth data-testid="input-type" />
        <BooleanInput source="is_inbound" format={(v: unknown) => v === 1 || v === '1' || v === true} parse={(v: boolean) => (v ? 1 : 0)} />
        <Box sx={{ gridColumn: '1 / -1' }}>
          <ImageInput
            source="site_header_logo"
            accept={{ 'image/png': ['.png'], 'image/jpeg': ['.jpg', '.jpeg'], 'image/webp': ['.webp'] }}
            maxSize={limit}
            format={(v: unknown) => (typeof v === 'string' ? { src: v, title: 'logo' } : v)}
            helperText={translate(`${T}.logo_hint`, { size: mb(limit) })}
            // the drop zone's own file input is named too (axe: a form field without a label)
            inputProps={{ 'aria-label': translate('resources.companies.fields.site_header_logo') }}
            options={{ onDropRejected: () => notify(`${T}.logo_rejected`, { type: 'error', messageArgs: { size: mb(limit) } }) }}
          >
            <ImageField source="src" title="title" sx={{ '& img': { maxHeight: 80, objectFit: 'contain' } }} />
          </ImageInput>
        </Box>
      </Grid>
    ),
    details: (
      <Grid>
        <TextInput source="legal_name" validate={v('legal_name')} fullWidth />
        <TextInput source="fax" type="email" validate={v('fax')} fullWidth />
        <TextInput source="address" validate={v('address')} fullWidth />
        <TextInput source="address_2" validate={v('address_2')} fullWidth />
        <CreatableTextInput source="city" path="city_list" query={(s) => (s.length >= 2 ? { search: s } : undefined)} valueOf={cityOf} validate={v('city')} />
        <CreatableTextInput
          source="province"
          path="province_list"
          valueOf={provinceOf}
          labelOf={(r) => (r.name && r.sigla ? `${r.sigla} – ${r.name}` : String(r.province ?? r.name))}
          validate={v('province')}
        />
        <TextInput source="postal_code" validate={v('postal_code')} fullWidth />
        <LookupPicker source="country_id" path="country_list" validate={v('country_id')} />
        <TextInput source="phone" validate={v('phone')} fullWidth />
        <TextInput source="phone_2" validate={v('phone_2')} fullWidth />
        <TextInput source="domestic_email" type="email" validate={v('domestic_email')} fullWidth />
        <TextInput source="international_email" type="email" validate={v('international_email')} fullWidth />
        <TextInput source="website_url" validate={v('website_url')} fullWidth />
      </Grid>
    ),
    carrier: isCarrierLike(role) ? (
      <>
        <Grid>
          <DecimalInput source="adr_surcharge_percent" min={0} max={100} step={0.01} validate={v('adr_surcharge_percent')} fullWidth />
          <DecimalInput source="taillift_fee" min={0} step={0.01} validate={v('taillift_fee')} slotProps={euro} fullWidth />
          <DecimalInput source="visitor_price_multiplier" min={0} max={10} step={0.01} validate={v('visitor_price_multiplier', above(0))} fullWidth />
          <Box />
          {fees}
          {ratios(false)}
        </Grid>
        <FuelPlanInputs />
      </>
    ) : null,
    enduser: isEnduserCompany(role) ? (
      <Grid>
        <CategoryPicker source="exp_category_id" rateType="EXP" carrierId={carrierId} />
        <CategoryPicker source="std_category_id" rateType="STD" carrierId={carrierId} />
        <DecimalInput source="increase_percent" min={0} max={100} step={0.01} validate={percentRule(`${T}.increase_range`)} fullWidth />
        <DecimalInput source="decrease_percent" min={0} max={100} step={0.01} validate={percentRule(`${T}.decrease_range`)} fullWidth />
        {fees}
        {ratios(true)}
      </Grid>
    ) : null,
  };

  return (
    <Box sx={{ width: '100%' }}>
      {sections.map((s) =>
        blocks[s] ? (
          <Box key={s} data-section={s}>
            {headings ? <Heading>{translate(`${T}.sections.${s}`)}</Heading> : null}
            {blocks[s]}
          </Box>
        ) : null,
      )}
    </Box>
  );
}

const FEES_AND_RATIOS = ['national_admin_fee', 'international_admin_fee', 'combo_cbm_ratio', 'combo_lm_ratio'];
/** The fields each create step validates before moving on (fees and ratios are step 3's on an end-user company). */
export function stepFields(step: 'settings' | 'details' | 'enduser', role: number | undefined): string[] {
  switch (step) {
    case 'settings':
      return ['company_role_id', 'carrier_id', 'price_category_id', 'language_id', 'type', 'is_inbound', 'site_header_logo'];
    case 'details':
      return [
        'legal_name',
        'fax',
        'address',
        'address_2',
        'city',
        'province',
        'postal_code',
        'country_id',
        'phone',
        'phone_2',
        'domestic_email',
        'international_email',
        'website_url',
        ...(isCarrierLike(role) ? ['adr_surcharge_percent', 'taillift_fee', 'visitor_price_multiplier', ...FEES_AND_RATIOS, ...FUEL_PLAN_FIELDS] : []),
      ];
    case 'enduser':
      return ['exp_category_id', 'std_category_id', 'increase_percent', 'decrease_percent', ...FEES_AND_RATIOS];
  }
}

/**
 * The record as it travels: the logo only when a new file was picked (kept otherwise, removed when
 * cleared), derived names left out (the server ignores them anyway).
 */
export function companyTransform(data: Record<string, unknown>) {
  const out: Record<string, unknown> = { ...data };
  const logo = out.site_header_logo as any;
  if (logo && typeof logo === 'object' && !(logo.rawFile instanceof File)) delete out.site_header_logo;
  if (typeof logo === 'string') delete out.site_header_logo;
  for (const k of [
    'logo',
    'role_name',
    'price_category_name',
    'carrier_name',
    'language_name',
    'country_name',
    'exp_category_code',
    'std_category_code',
    'users_count',
    'created_at',
    'updated_at',
    'status_id',
    'id',
  ])
    delete out[k];
  // Multipart drops nulls: a cleared field travels as an empty text, which the server reads as empty.
  if (out.site_header_logo && (out.site_header_logo as any).rawFile) {
    for (const [k, v] of Object.entries(out)) if (v === null) out[k] = '';
  }
  return out;
}
