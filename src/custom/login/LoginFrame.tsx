import type { FormEvent, ReactNode } from 'react';
import { Box, Card, CardContent, Stack, Typography } from '@mui/material';
import productLogo from '../../logo.svg';
import { LanguageSwitcher } from '../../layout/LanguageSwitcher';

/**
 * The sign-in card (the page's one `main`): logo, language switcher, title and intro, then the step's
 * fields. With `onSubmit` the card's content is the form. Used by the password step and the second step.
 */
export function LoginFrame({
  title,
  intro,
  maxWidth = 420,
  onSubmit,
  children,
}: {
  title: string;
  intro: string;
  maxWidth?: number;
  onSubmit?: (e: FormEvent) => void;
  children: ReactNode;
}) {
  const form = onSubmit ? ({ component: 'form', onSubmit, noValidate: true } as const) : {};
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'primary.dark', p: 2 }}>
      <Card sx={{ width: '100%', maxWidth }}>
        <CardContent {...form} sx={{ p: 4 }}>
          <Stack spacing={2}>
            <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
              <Box component="img" src={productLogo} alt="logo" sx={{ height: 48 }} />
              <LanguageSwitcher />
            </Box>
            <Box>
              <Typography variant="h5" component="h1">
                {title}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {intro}
              </Typography>
            </Box>
            {children}
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
