import { Link as RouterLink, useLocation, useSearchParams } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { Alert, AppBar, Box, Button, Container, Toolbar } from '@mui/material';
import productLogo from '../../logo.svg';
import { LanguageSwitcher } from '../../layout/LanguageSwitcher';
import { readHandOver } from './createForm';
import { CreateRequestPage } from './CreateRequestPage';

/**
 * /quote/request: a visitor books the quote it calculated on the public /quote page (issue 9), with its
 * contact details; the request reaches the visitor carrier (server.md §5). Without a quote handed
 * over there is nothing to book: back to /quote.
 */
export function VisitorRequestPage() {
  const translate = useTranslate();
  const location = useLocation();
  const [query] = useSearchParams();
  const handOver = readHandOver(location.state, query);
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <AppBar position="sticky" color="inherit" elevation={1}>
        <Toolbar sx={{ gap: 2 }}>
          <Box component="img" src={productLogo} alt="logo" sx={{ height: 40 }} />
          <Box sx={{ flex: 1 }} />
          <LanguageSwitcher />
          <Button component={RouterLink} to="/login" variant="outlined">
            {translate('login.submit')}
          </Button>
        </Toolbar>
      </AppBar>
      <Container component="main" maxWidth="xl" sx={{ py: 3 }}>
        {handOver ? (
          <CreateRequestPage visitor />
        ) : (
          <Alert
            severity="info"
            action={
              <Button component={RouterLink} to="/quote">
                {translate('requests.visitor_quote_first_action')}
              </Button>
            }
          >
            {translate('requests.visitor_quote_first')}
          </Alert>
        )}
      </Container>
    </Box>
  );
}
