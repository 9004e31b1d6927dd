import { describe, expect, it } from 'vitest';
import { canAccess } from '../../model/permissions';
import { MENU, leafPaths, visibleMenu } from './menuConfig';

const allPaths = new Set(leafPaths(MENU));
const visible = (kind: 'admin' | 'carrier' | 'enduser' | 'support', routed = allPaths) =>
  leafPaths(visibleMenu(kind, routed, (k, r) => canAccess(k, r, 'list')));

describe('sidebar entries by role (accounts document §2)', () => {
  it('admin: the document table, plus the portal settings screen', () => {
    expect(visible('admin')).toEqual([
      '/', '/calculate-cost', '/transport-requests-visuals', '/rate-sheets',
      '/express-hub-costs', '/express-island-zones', '/express-hub-codes', '/express-special-zones',
      '/standard-special-zones', '/standard_no_passage',
      '/countries', '/currencies', '/document-types', '/shipment-types', '/transport-classes', '/portal-settings',
      '/companies', '/user-management', '/settings',
    ]);
  });
  it('carrier: no reference data; access requests', () => {
    const v = visible('carrier');
    expect(v).toContain('/request-access');
    expect(v).toContain('/support');
    expect(v).not.toContain('/countries');
    expect(v).not.toContain('/enduser-rate-sheets');
  });
  it('end user', () => {
    expect(visible('enduser')).toEqual(['/', '/calculate-cost', '/transport-requests-visuals', '/enduser-rate-sheets', '/support', '/settings']);
  });
  it('shows only entries whose screen exists, and hides empty groups', () => {
    const v = visibleMenu('admin', new Set(['/', '/countries']), (k, r) => canAccess(k, r, 'list'));
    expect(v.map((e) => e.name)).toEqual(['dashboard', 'settings-group']);
    expect(leafPaths(v)).toEqual(['/', '/countries']);
  });
});
