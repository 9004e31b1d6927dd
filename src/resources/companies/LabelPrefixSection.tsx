import { useDataProvider } from 'react-admin';
import type { PortalDataProvider } from '../../dataProvider';
import { Gs1PrefixCard } from '../../components/labels/Gs1PrefixCard';

/**
 * The admin's card for a carrier company's GS1 company prefix (issue 36 item 3, docs/pallet-labels.md), on the
 * company's detail screen: the carrier's own settings form (components/labels), through /admin/label_settings.
 */
export function LabelPrefixSection({ companyId }: { companyId: number }) {
  const dataProvider = useDataProvider<PortalDataProvider>();
  return (
    <Gs1PrefixCard
      queryKey={['admin', 'label-settings', companyId]}
      load={() => dataProvider.adminLabelSettings(companyId)}
      save={(prefix) => dataProvider.saveAdminLabelSettings(companyId, prefix)}
      texts="company_labels"
      testId="company-label"
    />
  );
}
