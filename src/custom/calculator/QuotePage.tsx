import { Link as RouterLink } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { Box, Button, Paper, Typography } from '@mui/material';
import productLogo from '../../logo.svg';
import { LanguageSwitcher } from '../../layout/LanguageSwitcher';
import { lazyScreen, ScreenLoading } from '../../components/lazyScreen';
import { withMessages } from '../../publicI18n';
import { useAfterFirstPaint } from '../../components/afterFirstPaint';

/** The calculator's code and texts, on demand. */
const Calculator = lazyScreen(
  () =>
    withMessages(
      import('./Calculator'),
      import('./messages').then((m) => m.calculatorMessages),
    ),
  'Calculator',
);

/**
 * /quote: the same calculator without sign-in, priced for visitors (pricing.md §1), linked from the login screen.
 * The frame (top bar, title, introduction: the largest text a phone paints first) comes with the public
 * shell in the login's first load, in pieces MUI's core there already has (a Paper for the app bar, Boxes
 * for the toolbar and container); the calculator below arrives on demand, after the first paint (issue 18).
 */
export default function QuotePage() {
  const translate = useTranslate();
  const painted = useAfterFirstPaint();
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Paper component="header" square elevation={1} sx={{ position: 'sticky', top: 0, zIndex: 'appBar', width: '100%' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, minHeight: { xs: 56, sm: 64 }, px: { xs: 2, sm: 3 } }}>
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
            {translate('quote.signin')}
          </Button>
        </Box>
      </Paper>
      <Box component="main" sx={{ width: '100%', boxSizing: 'border-box', mx: 'auto', maxWidth: 'xl', px: { xs: 2, sm: 3 }, py: 3 }}>
        <Typography variant="h5" component="h1">
          {translate('quote.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {translate('quote.subtitle')}
        </Typography>
        {painted ? <Calculator kind="visitor" /> : <ScreenLoading />}
      </Box>
    </Box>
  );
}
