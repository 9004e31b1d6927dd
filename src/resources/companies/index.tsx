import { Route } from 'react-router-dom';
import BusinessIcon from '@mui/icons-material/Business';
import type { PortalResource } from '../types';
import { CompanyCreate } from './CompanyCreate';
import { CompanyList } from './CompanyList';
import { CompanyShow } from './CompanyShow';
import { companyMessages } from './messages';

/** /companies, /companies/new and /companies/{id}; editing happens in a modal on the list. */
const companies: PortalResource = {
  name: 'companies',
  list: CompanyList,
  hasCreate: true,
  hasShow: true,
  icon: BusinessIcon,
  recordRepresentation: 'legal_name',
  children: [
    <Route key="new" path="new" element={<CompanyCreate />} />,
    <Route key="show" path=":id" element={<CompanyShow />} />,
  ],
  api: { paths: { admin: '/admin/companies', carrier: '/company/companies' } },
  messages: companyMessages,
};

export default companies;
