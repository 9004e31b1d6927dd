import { describe, expect, it } from 'vitest';
import { translate, type Lang } from '../i18n/index.js';
import { ImportError, toApiError, type RowError } from './errors.js';

const cell = (row: number, column = 'p300'): RowError => ({ row, column, key: 'import.required' });
const message = (lang: Lang, errors: RowError[]) => {
  const e = toApiError(new ImportError(422, 'import.badRows', {}, errors), { t: (k: string, p?: Record<string, unknown>) => translate(lang, k, p) }, 'file');
  return translate(lang, e.key, e.params);
};

describe('the refused-rows message: singular and plural (issue 20)', () => {
  it('one error in one row', () => {
    expect(message('it', [cell(3)])).toBe('Il file contiene 1 errore nella riga 3: non è stato importato nulla. Correggilo e carica di nuovo il file.');
    expect(message('en', [cell(3)])).toBe('The file has 1 error in row 3: nothing was imported. Correct it and upload the file again.');
    expect(message('fr', [cell(3)])).toBe('Le fichier contient 1 erreur à la ligne 3 : rien n’a été importé. Corrigez-la et envoyez à nouveau le fichier.');
  });
  it('several errors in one row', () => {
    expect(message('it', [cell(4, 'p150'), cell(4)])).toBe(
      'Il file contiene 2 errori nella riga 4: non è stato importato nulla. Correggili e carica di nuovo il file.',
    );
    expect(message('en', [cell(4, 'p150'), cell(4)])).toMatch(/^The file has 2 errors in row 4:/);
    expect(message('fr', [cell(4, 'p150'), cell(4)])).toMatch(/^Le fichier contient 2 erreurs à la ligne 4 :/);
  });
  it('errors in several rows', () => {
    expect(message('it', [cell(5), cell(3), cell(3, 'p150')])).toBe(
      'Il file contiene 3 errori in 2 righe: non è stato importato nulla. Correggili e carica di nuovo il file.',
    );
  });
});
