import { useNavigate, useParams } from 'react-router-dom';
import { Loading, ShowBase, Title, useLocaleState, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { Box, Button } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { isCarrierLike } from '../../../model/companies';
import { useFormat } from '../../components/format';
import { DetailSection } from './Details';
import { StatusChip } from './StatusChip';
import { useDisplayNames } from './lookups';
import { ActivitySection } from '../../components/audit/ActivitySection';
import { FuelPreview } from './FuelPlan';
import { ListTitle } from '../../components/table/ListTitle';
import { LabelPrefixSection } from './LabelPrefixSection';

const T = 'resources.companies';
const F = `${T}.fields`;

function Sections() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const fmt = useFormat();
  const euro = (v: unknown) => fmt.money(v) || null;
  const names = useDisplayNames();
  const [locale] = useLocaleState();
  const r = useRecordContext();
  const { permissions: kind } = usePermissions();
  if (!r) return <Loading />;
  const num = (v: unknown, digits: number) =>
    v === null || v === undefined || v === ''
      ? null
      : new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: 3 }).format(Number(v));
  const pct = (v: unknown) => (v === null || v === undefined ? null : `${num(v, 0)} %`);
  const perLitre = (v: unknown) => (v === null || v === undefined ? null : `${num(v, 3)} €/l`);
  const kg = (v: unknown) => (v ? translate(`${T}.ratio_kg`, { value: v }) : null);
  const carrierLike = isCarrierLike(r.company_role_id);
  return (
    <Box data-testid="company-show">
      <Title title={r.legal_name} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2 }}>
        <Button startIcon={<ArrowBackIcon />} onClick={() => navigate('/companies')} data-testid="back">
          {translate(`${T}.actions.back`)}
        </Button>
        {r.site_header_logo ? <Box component="img" src={r.site_header_logo} alt="logo" sx={{ maxHeight: 56, maxWidth: 200, objectFit: 'contain' }} /> : null}
      </Box>
      {/* Whose page this is, above its sections (the top bar shows no title). */}
      <Box sx={{ mb: 2 }}>
        <ListTitle>{r.legal_name}</ListTitle>
      </Box>
      <DetailSection
        title={`${T}.sections.settings`}
        none={`${T}.none`}
        testid="section-settings"
        items={[
          { label: `${F}.company_role_id`, value: translate(`${T}.roles.${r.company_role_id}`, { _: r.role_name }) },
          { label: `${F}.carrier_id`, value: r.carrier_name },
          { label: `${F}.price_category_id`, value: r.price_category_name },
          { label: `${F}.language_id`, value: names.language(r.language_code, r.language_name) },
          { label: `${F}.type`, value: translate(`${T}.types.${r.type}`, { _: r.type }) },
          { label: `${F}.is_inbound`, value: translate(Number(r.is_inbound) === 1 ? 'ra.boolean.true' : 'ra.boolean.false') },
          { label: `${F}.status_id`, value: <StatusChip value={r.status_id} base={T} /> },
          ...(carrierLike
            ? [
                { label: `${F}.adr_surcharge_percent`, value: pct(r.adr_surcharge_percent) },
                { label: `${F}.taillift_fee`, value: euro(r.taillift_fee) },
                { label: `${F}.visitor_price_multiplier`, value: r.visitor_price_multiplier },
              ]
            : []),
        ]}
      />
      {carrierLike ? (
        <DetailSection
          title={`${T}.fuel.title`}
          none={`${T}.none`}
          testid="section-fuel"
          items={[
            { label: `${F}.fuel_base_price`, value: perLitre(r.fuel_base_price) },
            { label: `${F}.fuel_step`, value: perLitre(r.fuel_step) },
            { label: `${F}.fuel_step_percent`, value: pct(r.fuel_step_percent) },
            { label: `${F}.fuel_max_percent`, value: pct(r.fuel_max_percent) },
          ]}
          footer={
            <FuelPreview
              plan={{
                fuel_base_price: r.fuel_base_price,
                fuel_step: r.fuel_step,
                fuel_step_percent: r.fuel_step_percent,
                fuel_max_percent: r.fuel_max_percent,
              }}
            />
          }
        />
      ) : null}
      {/* the carrier's GS1 prefix for its pallet labels: the admin's to set here, the carrier's in its settings */}
      {carrierLike && kind === 'admin' ? <LabelPrefixSection companyId={Number(r.id)} /> : null}
      <DetailSection
        title={`${T}.sections.details`}
        none={`${T}.none`}
        testid="section-details"
        items={[
          { label: `${F}.legal_name`, value: r.legal_name },
          { label: `${F}.fax`, value: r.fax },
          { label: `${F}.address`, value: r.address },
          { label: `${F}.address_2`, value: r.address_2 },
          { label: `${F}.city`, value: r.city },
          { label: `${F}.province`, value: r.province },
          { label: `${F}.postal_code`, value: r.postal_code },
          { label: `${F}.country_id`, value: names.country(r.country_code, r.country_name) },
          { label: `${F}.phone`, value: r.phone },
          { label: `${F}.phone_2`, value: r.phone_2 },
          { label: `${F}.domestic_email`, value: r.domestic_email },
          { label: `${F}.international_email`, value: r.international_email },
          { label: `${F}.website_url`, value: r.website_url },
        ]}
      />
      <DetailSection
        title={`${T}.sections.enduser`}
        none={`${T}.none`}
        testid="section-enduser"
        items={[
          { label: `${F}.exp_category_id`, value: r.exp_category_code },
          { label: `${F}.std_category_id`, value: r.std_category_code },
          { label: `${F}.increase_percent`, value: pct(r.increase_percent) },
          { label: `${F}.decrease_percent`, value: pct(r.decrease_percent) },
          { label: `${F}.national_admin_fee`, value: euro(r.national_admin_fee) },
          { label: `${F}.international_admin_fee`, value: euro(r.international_admin_fee) },
          { label: `${F}.combo_cbm_ratio`, value: kg(r.combo_cbm_ratio) },
          { label: `${F}.combo_lm_ratio`, value: kg(r.combo_lm_ratio) },
        ]}
      />
      <ActivitySection resource="companies" id={r.id} />
    </Box>
  );
}

/** /companies/{id}: three read-only sections, settings, details and end-customer info (accounts document §2). */
export function CompanyShow() {
  const { id } = useParams();
  return (
    <ShowBase resource="companies" id={id}>
      <Sections />
    </ShowBase>
  );
}
