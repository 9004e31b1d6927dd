import { useTranslate } from 'react-admin';
import { Alert, Box, Button, Paper, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import type { Service, Zone } from './types';

/**
 * Step 1 (calculator document §2): a zone and a service. International allows only standard (choosing
 * it forces standard); Next stays disabled until both are chosen, and is hidden once pressed.
 */
export function StepOne({
  zone,
  service,
  showNext,
  onChange,
  onNext,
}: {
  zone: Zone | '';
  service: Service | '';
  showNext: boolean;
  onChange: (zone: Zone | '', service: Service | '') => void;
  onNext: () => void;
}) {
  const translate = useTranslate();
  return (
    <Paper sx={{ p: 2 }} data-testid="calc-step1">
      <Typography variant="h6" component="h2" gutterBottom>
        {translate('calculator.step1')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 3, alignItems: 'flex-end' }}>
        <Box>
          <Typography variant="body2" color="text.secondary" id="calc-zone-label" gutterBottom>
            {translate('calculator.zone')}
          </Typography>
          <ToggleButtonGroup
            exclusive
            color="primary"
            value={zone}
            aria-labelledby="calc-zone-label"
            onChange={(_e, v: Zone | null) => v && onChange(v, v === 'international' ? 'standard' : service)}
          >
            <ToggleButton value="national" data-testid="zone-national">
              {translate('calculator.zone_national')}
            </ToggleButton>
            <ToggleButton value="international" data-testid="zone-international">
              {translate('calculator.zone_international')}
            </ToggleButton>
          </ToggleButtonGroup>
        </Box>
        <Box>
          <Typography variant="body2" color="text.secondary" id="calc-service-label" gutterBottom>
            {translate('calculator.service')}
          </Typography>
          <ToggleButtonGroup
            exclusive
            color="primary"
            value={service}
            aria-labelledby="calc-service-label"
            onChange={(_e, v: Service | null) => v && onChange(zone, v)}
          >
            <ToggleButton value="palletExpress" disabled={zone === 'international'} data-testid="service-palletExpress">
              {translate('calculator.service_palletExpress')}
            </ToggleButton>
            <ToggleButton value="standard" data-testid="service-standard">
              {translate('calculator.service_standard')}
            </ToggleButton>
          </ToggleButtonGroup>
        </Box>
        {showNext && (
          <Button variant="contained" onClick={onNext} disabled={!zone || !service} data-testid="calc-next">
            {translate('calculator.next')}
          </Button>
        )}
      </Box>
      {zone === 'international' && (
        <Alert severity="info" sx={{ mt: 2 }}>
          {translate('calculator.international_standard_only')}
        </Alert>
      )}
    </Paper>
  );
}
