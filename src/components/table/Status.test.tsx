import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { AdminContext, RecordContextProvider } from 'react-admin';
import { buildI18nProvider } from '../../i18n';
import { componentMessages } from '../messages';
import { StatusField } from './Status';
import { theme } from '../../layout/theme';

afterEach(cleanup);
const { provider } = buildI18nProvider([componentMessages], 'en');

describe('status in the shared table', () => {
  it('status_id 1 reads Open in blue, anything else Close in red', () => {
    for (const [status, text, open] of [
      [1, 'Open', '1'],
      [0, 'Close', '0'],
      [4, 'Close', '0'],
    ] as const) {
      render(
        <AdminContext i18nProvider={provider} theme={theme}>
          <RecordContextProvider value={{ id: 1, status_id: status }}>
            <StatusField />
          </RecordContextProvider>
        </AdminContext>,
      );
      const el = screen.getByTestId('status');
      expect(el.textContent).toBe(text);
      expect(el.getAttribute('data-open')).toBe(open);
      expect(getComputedStyle(el).color).toBe(open === '1' ? 'rgb(21, 101, 192)' : 'rgb(198, 40, 40)');
      cleanup();
    }
  });
});
