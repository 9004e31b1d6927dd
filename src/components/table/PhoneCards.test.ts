import { createTheme } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { phoneColumnLabels } from './PhoneCards';

const theme = createTheme();
const phone = theme.breakpoints.down('sm');

describe('phoneColumnLabels', () => {
  it('labels each column by its position on a phone, and nothing wider', () => {
    expect(phoneColumnLabels(['#', 'Peso (kg)'])(theme)).toEqual({
      [phone]: {
        '& tbody > tr > td:nth-of-type(1)::before': { content: '"#"' },
        '& tbody > tr > td:nth-of-type(2)::before': { content: '"Peso (kg)"' },
      },
    });
  });

  it('with `title: false` keeps the first column a labelled line, its value on the right', () => {
    const rules = (phoneColumnLabels(['#', 'Colli'], { title: false })(theme) as Record<string, Record<string, unknown>>)[phone];
    expect(rules['& tbody > tr > td:nth-of-type(2)::before']).toEqual({ content: '"Colli"' });
    expect(rules['& tbody > tr > td:first-of-type:not(.MuiTableCell-paddingCheckbox)']).toEqual({
      justifyContent: 'space-between',
      textAlign: 'right',
      fontWeight: 'inherit',
      pr: 0,
      '&::before': { display: 'block' },
    });
  });
});
