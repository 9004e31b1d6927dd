import { useNavigate, useParams } from 'react-router-dom';
import { Loading, ShowBase, Title, useRecordContext, useTranslate } from 'react-admin';
import { Box, Button } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { DetailSection } from '../companies/Details';
import { StatusChip } from '../companies/StatusChip';
import { useDisplayNames } from '../companies/lookups';
import { ActivitySection } from '../../components/audit/ActivitySection';
import { EndSessionsButton } from './EndSessionsButton';
import { UserMfa } from './UserMfa';
import { ListTitle } from '../../components/table/ListTitle';

const T = 'resources.user-management';
const F = `${T}.fields`;

function Sections() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const r = useRecordContext();
  const names = useDisplayNames();
  if (!r) return <Loading />;
  const fullName = [r.first_name, r.last_name].filter(Boolean).join(' ');
  return (
    <Box data-testid="user-show">
      <Title title={fullName} />
      <Button startIcon={<ArrowBackIcon />} onClick={() => navigate('/user-management')} sx={{ mb: 2 }} data-testid="back">
        {translate(`${T}.actions.back`)}
      </Button>
      <EndSessionsButton record={r} />
      {/* Whose page this is, above its sections (the top bar shows no title). */}
      <Box sx={{ mb: 2 }}>
        <ListTitle>{fullName}</ListTitle>
      </Box>
      <DetailSection
        title={`${T}.sections.settings`}
        none={`${T}.none`}
        testid="section-settings"
        items={[
          { label: `${F}.company_legal_name`, value: r.company_legal_name },
          { label: `${F}.language_id`, value: names.language(r.language_code, r.language_name) },
          { label: `${F}.role_id`, value: translate(`${T}.roles.${r.role_id}`, { _: r.role_name }) },
        ]}
      />
      <DetailSection
        title={`${T}.sections.information`}
        none={`${T}.none`}
        testid="section-information"
        items={[
          { label: `${F}.title`, value: r.title },
          { label: `${F}.full_name`, value: fullName },
          { label: `${F}.address`, value: r.address },
          { label: `${F}.city`, value: r.city },
          { label: `${F}.phone`, value: r.phone },
          { label: `${F}.phone_2`, value: r.phone_2 },
          { label: `${F}.country_id`, value: names.country(r.country_code, r.country_name) },
          { label: `${F}.postal_code`, value: r.postal_code },
          { label: `${F}.email`, value: r.email },
          { label: `${F}.status_id`, value: <StatusChip value={r.status_id} base={T} />, testid: 'user-status' },
        ]}
      />
      <UserMfa userId={Number(r.id)} />
      <ActivitySection resource="users" id={r.id} />
    </Box>
  );
}

/** /user-management/{id}: user settings, then the person; status active in green, inactive in red; 'N/A' when empty. */
export function UserShow() {
  const { id } = useParams();
  return (
    <ShowBase resource="user-management" id={id}>
      <Sections />
    </ShowBase>
  );
}
