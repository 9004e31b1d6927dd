import { describe, expect, it } from 'vitest';
import { companyTransform, stepFields } from './CompanyInputs';
import { userTransform } from '../user-management/UserInputs';
import { companyFieldApplies, requiredCompanyFields } from '../../../model/companies';
import { passwordFits, rolesACarrierAssigns, rolesForCompanyRole } from '../../../model/users';

describe('company form', () => {
  it('sends a logo only when a new file was picked, and no derived names', () => {
    const file = new File([new Uint8Array([1])], 'logo.png', { type: 'image/png' });
    expect(companyTransform({ legal_name: 'A', site_header_logo: '/media/x.png', role_name: 'Carrier', users_count: 2, status_id: 0 })).toEqual({
      legal_name: 'A',
    });
    expect(companyTransform({ site_header_logo: { src: '/media/x.png', title: 'logo' } })).toEqual({});
    expect(companyTransform({ site_header_logo: null })).toEqual({ site_header_logo: null });
    // With a file the body goes as multipart, where a cleared field must travel as empty text.
    const withFile = companyTransform({ site_header_logo: { rawFile: file }, address_2: null });
    expect(withFile.address_2).toBe('');
  });

  it('validates fees and ratios in step 3 for an end-user company, in step 2 for a carrier', () => {
    expect(stepFields('details', 3)).not.toContain('combo_cbm_ratio');
    expect(stepFields('enduser', 3)).toContain('combo_cbm_ratio');
    expect(stepFields('details', 2)).toEqual(expect.arrayContaining(['adr_surcharge_percent', 'taillift_fee', 'combo_lm_ratio']));
  });

  it('requires the carrier and the ratios of an end-user company only', () => {
    expect(requiredCompanyFields(3)).toEqual(expect.arrayContaining(['carrier_id', 'combo_cbm_ratio', 'combo_lm_ratio', 'fax', 'price_category_id']));
    expect(requiredCompanyFields(2)).not.toContain('carrier_id');
    expect(companyFieldApplies('increase_percent', 2)).toBe(false);
    expect(companyFieldApplies('adr_surcharge_percent', 3)).toBe(false);
    expect(companyFieldApplies('adr_surcharge_percent', 4)).toBe(true);
  });
});

describe('user form', () => {
  it('keeps the old password when none is typed, and sends no derived names', () => {
    expect(userTransform({ first_name: 'A', password: '', password_confirmation: '', company_legal_name: 'X', status_id: 0 })).toEqual({ first_name: 'A' });
    expect(userTransform({ password: 'Secret123', password_confirmation: 'Secret123' })).toEqual({ password: 'Secret123', password_confirmation: 'Secret123' });
  });

  it('offers the roles that fit the company, and a carrier only those below it', () => {
    expect(rolesForCompanyRole(3)).toEqual([6]);
    expect(rolesForCompanyRole(2)).toEqual([3, 5, 7]);
    expect(rolesACarrierAssigns(true)).toEqual([5, 7]);
    expect(rolesACarrierAssigns(false)).toEqual([6]);
  });

  it('applies the password rule of server.md §3', () => {
    expect(passwordFits('abcdefg1')).toBe(true);
    expect(passwordFits('abcdefgh')).toBe(false);
    expect(passwordFits('1234567a'.slice(0, 7))).toBe(false);
    expect(passwordFits(`a1${'x'.repeat(127)}`)).toBe(false);
  });
});
