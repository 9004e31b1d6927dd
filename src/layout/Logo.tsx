import { useGetIdentity, usePermissions } from 'react-admin';
import { Box } from '@mui/material';
import productLogo from '../logo.svg';

/** The logo rule: Admin gets the product's image; a carrier or end user its company's logo, else the company's site_header_logo. */
export function Logo() {
  const { permissions } = usePermissions();
  const { identity } = useGetIdentity();
  const company = (identity as any)?.company;
  const src = permissions === 'admin' ? productLogo : (company?.logo ?? company?.site_header_logo ?? productLogo);
  const alt = permissions === 'admin' || !company ? 'logo' : company.legal_name;
  return <Box component="img" src={src} alt={alt} sx={{ height: 44, maxWidth: 160, objectFit: 'contain' }} data-testid="logo" />;
}
