import { useDataProvider } from 'react-admin';
import type { PortalDataProvider } from '../../dataProvider';
import { Gs1PrefixCard } from '../../components/labels/Gs1PrefixCard';

/**
 * A carrier's pallet label settings (issue 36 item 3, docs/pallet-labels.md): its GS1 company prefix. Carrier
 * users see it read-only (the server answers `can_edit`); the admin's card on a company is the same form.
 */
export function LabelSettingsCard() {
  const dataProvider = useDataProvider<PortalDataProvider>();
  return (
    <Gs1PrefixCard
      queryKey={['account', 'label-settings']}
      load={() => dataProvider.labelSettings()}
      save={(prefix) => dataProvider.saveLabelSettings(prefix)}
      texts="label_settings"
      testId="label"
      intro
    />
  );
}
