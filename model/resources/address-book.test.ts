import { describe, expect, it } from 'vitest';
import { choiceOf } from '../fields';
import { RESOURCES } from '../registry';
import { LANGS, browserMessages, optionKey, serverMessages, type ResourceDecl } from '../resource';
import addressBook from './address-book';

/** The words of a select's options (`optionLabels`, issue 34): one message per option and language, on both sides. */
describe('option labels', () => {
  it('the address book words its kinds in it/en/fr, in the browser and on the server', () => {
    const key = optionKey('address-book', 'kind', 'both');
    expect(addressBook.fields.kind.options.map((o) => choiceOf(o).name)).toContain(key);
    expect(serverMessages(addressBook).it[key]).toBe('Ritiro e consegna');
    expect(serverMessages(addressBook).fr[optionKey('address-book', 'kind', 'pickup')]).toBe('Enlèvement');
    const browser = browserMessages(addressBook).en as any;
    expect(browser.resources['address-book'].options.kind.delivery).toBe('Delivery');
    expect(browser['text-address-book']).toBe('Address book');
  });

  it('every option named by an option key has its words in every language', () => {
    for (const decl of RESOURCES as readonly ResourceDecl[]) {
      for (const [field, f] of Object.entries(decl.fields)) {
        for (const o of (f.options ?? []).map(choiceOf)) {
          if (o.name !== optionKey(decl.name, field, o.id)) continue;
          for (const l of LANGS) expect(serverMessages(decl)[l][o.name], `${decl.name}.${field}.${o.id} (${l})`).toBeTruthy();
        }
      }
    }
  });
});
