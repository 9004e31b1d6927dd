import type { ReactNode } from 'react';
import { Box, Card, CardContent, Typography } from '@mui/material';
import productLogo from '../../logo.svg';
import { LanguageSwitcher } from '../../layout/LanguageSwitcher';

/** The frame of the public account screens, as the sign-in page: logo, language switcher, a card. */
export function PublicCard({ title, subtitle, children, width = 440 }: { title: string; subtitle?: ReactNode; children: ReactNode; width?: number }) {
  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'primary.dark', p: { xs: 1, sm: 2 } }}
    >
      <Card sx={{ width: '100%', maxWidth: width, my: 2 }}>
        <CardContent sx={{ p: { xs: 2.5, sm: 4 } }}>
          <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 2 }}>
            <Box component="img" src={productLogo} alt="logo" sx={{ height: 48 }} />
            <LanguageSwitcher />
          </Box>
          <Typography variant="h5" component="h1">
            {title}
          </Typography>
          {subtitle && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {subtitle}
            </Typography>
          )}
          <Box sx={{ mt: 3 }}>{children}</Box>
        </CardContent>
      </Card>
    </Box>
  );
}
