import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, AUDIT_TEXTS, actionLabel, fieldLabel, formatChange, formatChanges, formatValue, linkOf, resourceLabel } from './format';
import { LANGS } from '../../../model/resource';

describe('audit entry formatting', () => {
  it('names a change with the declaration’s field label in the user’s language', () => {
    const change = { field: 'legal_name', before: 'Rossi Trasporti', after: 'Rossi Logistica' };
    expect(formatChange('companies', 'update', change, 'it')).toBe('Ragione sociale: «Rossi Trasporti» → «Rossi Logistica»');
    expect(formatChange('companies', 'update', change, 'en')).toBe('Legal name: “Rossi Trasporti” → “Rossi Logistica”');
    expect(formatChange('companies', 'update', change, 'fr')).toBe('Raison sociale: «\u00a0Rossi Trasporti\u00a0» → «\u00a0Rossi Logistica\u00a0»');
  });

  it('uses the table’s own declaration (users, not companies) and the audit texts for columns no declaration lists', () => {
    expect(fieldLabel('users', 'first_name', 'it')).toBe('Nome');
    expect(fieldLabel('users', 'company_id', 'it')).toBe('Azienda');
    expect(fieldLabel('companies', 'status_id', 'it')).toBe('Stato');
    expect(fieldLabel('transport_requests', 'cost', 'fr')).toBe('Prix');
    expect(fieldLabel('express_hub_costs', 'silver', 'it')).toBe('Silver');
    expect(fieldLabel('express_rate_rows', 'quintal_cost', 'it')).toBe('Costo al quintale');
    expect(fieldLabel('countries', 'name', 'it')).not.toBe('name');
    // Unknown column: its name with spaces, never nothing.
    expect(fieldLabel('companies', 'some_new_column', 'it')).toBe('some new column');
  });

  it('shows empty values, numbers, booleans, objects and long text readably', () => {
    expect(formatValue(null, 'it')).toBe('(vuoto)');
    expect(formatValue('', 'en')).toBe('(empty)');
    expect(formatValue(undefined, 'fr')).toBe('(vide)');
    expect(formatValue(12.5, 'it')).toBe('12.5');
    expect(formatValue(0, 'it')).toBe('0');
    expect(formatValue(true, 'it')).toBe('Sì');
    expect(formatValue(false, 'fr')).toBe('Non');
    expect(formatValue({ a: 1 }, 'it')).toBe('{"a":1}');
    expect(formatValue('x'.repeat(250), 'it')).toBe(`«${'x'.repeat(200)}…»`);
    expect(formatChange('companies', 'update', { field: 'address_2', before: null, after: 'Scala B' }, 'it')).toBe('Indirizzo (riga 2): (vuoto) → «Scala B»');
  });

  it('shows money in euros, yes/no columns and the status in words', () => {
    const nbsp = (t: string) => t.replace(/ €/g, '\u00a0€');
    expect(formatChange('companies', 'update', { field: 'taillift_fee', before: 2500, after: 3000 }, 'it')).toBe(
      nbsp('Costo sponda idraulica: 25,00 € → 30,00 €'),
    );
    expect(formatChange('companies', 'update', { field: 'national_admin_fee', before: null, after: 450 }, 'en')).toBe('National admin fee: (empty) → €4.50');
    expect(formatChange('transport_requests', 'update', { field: 'cost', before: 24310, after: 25000 }, 'it')).toBe(nbsp('Prezzo: 243,10 € → 250,00 €'));
    expect(formatChange('companies', 'status', { field: 'status_id', before: 1, after: 0 }, 'it')).toBe('Stato: Attivo → Inattivo');
    expect(formatChange('users', 'status', { field: 'status_id', before: 0, after: 1 }, 'fr')).toBe('Statut: Inactif → Actif');
    expect(formatChange('express_hub_costs', 'upload', { field: 'file', before: null, after: 'hub.xlsx' }, 'it')).toBe('File: «hub.xlsx»');
    expect(formatChange('express_hub_costs', 'delete', { field: 'rows', before: 6, after: 0 }, 'it')).toBe('Righe: 6');
  });

  it('shows a creation’s new values and a deletion’s old ones alone', () => {
    expect(formatChange('companies', 'create', { field: 'city', before: null, after: 'Roma' }, 'it')).toBe('Città: «Roma»');
    expect(formatChange('companies', 'delete', { field: 'city', before: 'Roma', after: null }, 'en')).toBe('City: “Roma”');
  });

  it('names coded values the screen knows (a role id), and leaves the others as they are', () => {
    const roles: Record<string, string> = { 3: 'Vettore', 5: 'Utente vettore' };
    const name = (table: string, field: string, v: unknown) => (table === 'users' && field === 'role_id' ? roles[String(v)] : undefined);
    expect(formatChange('users', 'update', { field: 'role_id', before: 3, after: 5 }, 'it', name)).toBe('Ruolo: Vettore → Utente vettore');
    expect(formatChange('users', 'update', { field: 'role_id', before: 3, after: 9 }, 'it', name)).toBe('Ruolo: Vettore → 9');
    expect(formatChange('users', 'update', { field: 'last_name', before: 'A', after: 'B' }, 'it', name)).toBe('Cognome: «A» → «B»');
  });

  it('formats every change of an entry in order, and none when there are none', () => {
    const entry = {
      resource: 'users',
      action: 'update',
      changes: [
        { field: 'last_name', before: 'Bianchi', after: 'Verdi' },
        { field: 'phone', before: '06 1234', after: null },
      ],
    };
    expect(formatChanges(entry, 'it')).toEqual(['Cognome: «Bianchi» → «Verdi»', 'Telefono: «06 1234» → (vuoto)']);
    expect(formatChanges({ resource: 'auth', action: 'login_failed', changes: [] }, 'it')).toEqual([]);
  });

  it('translates actions and resources, the declaration’s plural first', () => {
    expect(actionLabel('update', 'it')).toBe('Modifica');
    expect(actionLabel('create', 'it')).toBe('Creazione');
    expect(actionLabel('login_failed', 'it')).toBe('Accesso non riuscito');
    expect(actionLabel('login_failed', 'en')).toBe('Failed sign-in');
    expect(actionLabel('something_new', 'it')).toBe('something_new');
    expect(resourceLabel('companies', 'it')).toBe('Aziende');
    expect(resourceLabel('companies', 'fr')).toBe('Entreprises');
    expect(resourceLabel('users', 'it')).toBe('Utenti');
    expect(resourceLabel('express_hub_costs', 'it')).toBe('Costi hub');
    expect(resourceLabel('transport_requests', 'en')).toBe('Transport requests');
    expect(resourceLabel('auth', 'it')).toBe('Accesso');
    expect(resourceLabel('no_such_table', 'it')).toBe('no_such_table');
  });

  it('has every action in the three languages', () => {
    for (const lang of LANGS) for (const a of AUDIT_ACTIONS) expect(AUDIT_TEXTS[lang].actions[a], `${lang}.${a}`).toBeTruthy();
  });

  it('links to the screens that exist', () => {
    expect(linkOf({ resource: 'companies', resource_id: 7 })).toBe('/companies/7');
    expect(linkOf({ resource: 'users', resource_id: 3 })).toBe('/user-management/3');
    expect(linkOf({ resource: 'transport_requests', resource_id: 12 })).toBe('/transport-requests-visuals/12/1');
    expect(linkOf({ resource: 'express_hub_costs', resource_id: null })).toBe('/express-hub-costs');
    expect(linkOf({ resource: 'rate_sheets', resource_id: 4, company_id: 2 })).toBe('/rate-sheets/4/2');
    expect(linkOf({ resource: 'companies', resource_id: null })).toBeNull();
    expect(linkOf({ resource: 'auth', resource_id: 3 })).toBe('/user-management/3');
    expect(linkOf({ resource: 'auth', resource_id: null })).toBeNull();
    expect(linkOf({ resource: 'settings', resource_id: 1 })).toBeNull();
    // A generated resource's row: its show page (issue 34).
    expect(linkOf({ resource: 'currencies', resource_id: 2 })).toBe('/currencies/2/show');
    expect(linkOf({ resource: 'currencies', resource_id: null })).toBeNull();
  });
});
