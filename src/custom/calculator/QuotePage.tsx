import { Link as RouterLink } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { AppBar, Box, Button, Container, Toolbar, Typography } from '@mui/material';
import productLogo from '../../logo.svg';
import { LanguageSwitcher } from '../../layout/LanguageSwitcher';
import { Calculator } from './Calculator';

/** /quote: the same calculator without sign-in, priced for visitors (pricing.md §1), linked from the login screen. */
export default function QuotePage() {
  const translate = useTranslate();
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <AppBar position="sticky" color="inherit" elevation={1}>
        <Toolbar sx={{ gap: 2 }}>
          <Box component="img" src={productLogo} alt="logo" sx={{ height: 40 }} />
          <Box sx={{ flex: 1 }} />
          <Button component={RouterLink} to="/track" data-testid="quote-track" sx={{ whiteSpace: 'nowrap', minWidth: 0 }}>
            <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
              {translate('tracking.link')}
            </Box>
            <Box component="span" sx={{ display: { xs: 'inline', sm: 'none' } }}>
              {translate('tracking.link_short')}
            </Box>
          </Button>
          <LanguageSwitcher />
          <Button component={RouterLink} to="/login" variant="outlined" data-testid="quote-signin">
            {translate('calculator.signin')}
          </Button>
        </Toolbar>
      </AppBar>
      <Container component="main" maxWidth="xl" sx={{ py: 3 }}>
        <Typography variant="h5" component="h1">
          {translate('calculator.quote_title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {translate('calculator.quote_subtitle')}
        </Typography>
        <Calculator kind="visitor" />
      </Container>
    </Box>
  );
}
