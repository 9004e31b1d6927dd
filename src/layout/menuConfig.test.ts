import { describe, expect, it } from 'vitest';
import { canAccess } from '../../model/permissions';
import { MENU, leafPaths, visibleMenu, withDeclared } from './menuConfig';
import { vehicleTypes } from '../../tests/fixtures/vehicleTypes';
import { RESOURCES } from '../../model/registry';
import { browserMessages } from '../../model/resource';
import { shellItalian } from '../i18n/shell';
import { shellMessages as shellEnglish } from '../i18n/shell-en';
import { shellMessages as shellFrench } from '../i18n/shell-fr';

const allPaths = new Set(leafPaths(MENU));
const visible = (kind: 'admin' | 'carrier' | 'enduser' | 'support', routed = allPaths) =>
  leafPaths(visibleMenu(kind, routed, (k, r) => canAccess(k, r, 'list')));

describe('sidebar entries by role (accounts document §2)', () => {
  it('admin: the document table, plus the portal settings screen, the diesel prices and the address book', () => {
    expect(visible('admin')).toEqual([
      '/',
      '/calculate-cost',
      '/transport-requests-visuals',
      '/address-book',
      '/rate-sheets',
      '/diesel-prices',
      '/express-hub-costs',
      '/express-island-zones',
      '/express-hub-codes',
      '/express-special-zones',
      '/standard-special-zones',
      '/standard_no_passage',
      '/postal-surcharges',
      '/countries',
      '/currencies',
      '/document-types',
      '/shipment-types',
      '/transport-classes',
      '/portal-settings',
      '/audit-log',
      '/companies',
      '/user-management',
      // the admin reviews access requests too (issue 35)
      '/request-access',
      '/settings',
    ]);
  });
  it('carrier: no reference data; access requests', () => {
    const v = visible('carrier');
    expect(v).toContain('/request-access');
    expect(v).toContain('/support');
    expect(v).not.toContain('/countries');
    // Declared read access (model/resources/diesel-prices.ts): the carrier reads the diesel prices.
    expect(v).toContain('/diesel-prices');
    expect(v).not.toContain('/enduser-rate-sheets');
    // Its own places (model/resources/address-book.ts), after the requests.
    expect(v.indexOf('/address-book')).toBe(v.indexOf('/transport-requests-visuals') + 1);
  });
  it('end user', () => {
    expect(visible('enduser')).toEqual([
      '/',
      '/calculate-cost',
      '/transport-requests-visuals',
      '/address-book',
      '/enduser-rate-sheets',
      '/support',
      '/settings',
    ]);
  });
  it('shows only entries whose screen exists, and hides empty groups', () => {
    const v = visibleMenu('admin', new Set(['/', '/countries']), (k, r) => canAccess(k, r, 'list'));
    expect(v.map((e) => e.name)).toEqual(['dashboard', 'settings-group']);
    expect(leafPaths(v)).toEqual(['/', '/countries']);
  });
  it('a declared resource joins the group its declaration names, for the kinds it names', () => {
    const menu = withDeclared(MENU, [vehicleTypes]);
    const paths = (kind: 'admin' | 'carrier' | 'enduser') =>
      leafPaths(
        visibleMenu(
          kind,
          new Set(leafPaths(menu)),
          (k, r) => (r === 'vehicle-types' ? !!vehicleTypes.permissions[k]?.includes('list') : canAccess(k, r, 'list')),
          menu,
        ),
      );
    const admin = paths('admin');
    expect(admin.indexOf('/vehicle-types')).toBe(admin.indexOf('/transport-classes') + 1);
    expect(paths('carrier')).toContain('/vehicle-types');
    expect(paths('enduser')).not.toContain('/vehicle-types');
    expect(() => withDeclared(MENU, [{ ...vehicleTypes, menu: { group: 'settings-group', after: 'nowhere' } }])).toThrow(/no menu entry nowhere/);
  });
  it('names every entry a role sees differently, in each language (the two special-zone tables were both "Zone speciali")', () => {
    const shell = { it: shellItalian, en: shellEnglish, fr: shellFrench } as Record<string, Record<string, unknown>>;
    for (const lang of ['it', 'en', 'fr'] as const) {
      const texts: Record<string, unknown> = { ...shell[lang], ...Object.assign({}, ...RESOURCES.map((d) => browserMessages(d)[lang])) };
      for (const kind of ['admin', 'carrier', 'enduser'] as const) {
        const labels = leafPaths(visibleMenu(kind, allPaths, (k, r) => canAccess(k, r, 'list'))).map(
          (p) => texts[`text-${p === '/' ? 'dashboard' : p.slice(1)}`],
        );
        for (const l of labels) expect(typeof l, `${lang} ${kind}`).toBe('string');
        expect(new Set(labels).size, `${lang} ${kind}: ${labels.join(', ')}`).toBe(labels.length);
      }
    }
    const italian = Object.assign({}, ...RESOURCES.map((d) => browserMessages(d).it));
    expect([italian['text-express-special-zones'], italian['text-standard-special-zones']]).toEqual(['Zone speciali express', 'Zone speciali standard']);
  });
});
