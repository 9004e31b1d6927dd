import { Route } from 'react-router-dom';
import BusinessIcon from '@mui/icons-material/Business';
import type { ResourceScreens } from '../types';
import { lazyScreen } from '../../components/lazyScreen';
import { companyMessages } from './messages';
import { labelPrefixMessages } from './labelPrefixMessages';
import { mergeMessages } from '../../i18n/merge';

// The screens load when first opened (src/components/lazyScreen.tsx).
const CompanyList = lazyScreen(() => import('./CompanyList'), 'CompanyList');
const CompanyCreate = lazyScreen(() => import('./CompanyCreate'), 'CompanyCreate');
const CompanyShow = lazyScreen(() => import('./CompanyShow'), 'CompanyShow');

/** /companies, /companies/new and /companies/{id}; editing happens in a modal on the list. */
const companies: ResourceScreens = {
  list: CompanyList,
  hasCreate: true,
  hasShow: true,
  icon: BusinessIcon,
  recordRepresentation: 'legal_name',
  children: [<Route key="new" path="new" element={<CompanyCreate />} />, <Route key="show" path=":id" element={<CompanyShow />} />],
  messages: mergeMessages(companyMessages, labelPrefixMessages),
};

export default companies;
