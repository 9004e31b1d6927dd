import { Link as RouterLink } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { Box, Button, Typography } from '@mui/material';

/** Any path not listed: "Page Not Found" with a link home. */
export function NotFound() {
  const translate = useTranslate();
  return (
    <Box sx={{ textAlign: 'center', py: 8 }} data-testid="not-found">
      <Typography variant="h2" component="p" color="primary" sx={{ fontWeight: 700 }}>
        404
      </Typography>
      <Typography variant="h5" component="h1" gutterBottom>
        {translate('portal.not_found')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {translate('portal.not_found_text')}
      </Typography>
      <Button component={RouterLink} to="/" variant="contained">
        {translate('portal.back_home')}
      </Button>
    </Box>
  );
}
