import { describe, expect, it } from 'vitest';
import { initialForm, toCostRequest, validate } from './request';
import type { CalcForm } from './types';

const express = (): CalcForm => ({
  ...initialForm(),
  zone: 'national',
  service: 'palletExpress',
  origin: { country: 'IT', postalCode: '20121', locality: 'Milano', province: 'mi' },
  destination: { country: 'IT', postalCode: '00118', locality: 'Roma', province: 'RM' },
  pallets: [
    { weight: '250', width: '120', length: '80', height: '90' },
    { weight: '12,5', width: '100', length: '120', height: '60' },
  ],
});

describe('the cost request of the form', () => {
  it('builds the documented payload for pallet express, with dots and upper-case sigle', () => {
    expect(toCostRequest(express(), 'enduser')).toEqual({
      zone: 'national',
      service: 'palletExpress',
      flow: 'OUT',
      adr: 0,
      taillift: 0,
      originCountry: 'IT',
      originPostalCode: '20121',
      originLocality: 'Milano',
      originProvince: 'MI',
      destinationCountry: 'IT',
      destinationPostalCode: '00118',
      destinationLocality: 'Roma',
      destinationProvince: 'RM',
      palletWeight: [250, 12.5],
      palletWidth: [120, 100],
      palletLength: [80, 120],
      palletHeight: [90, 60],
    });
  });

  it('sends the ratio for carriers and admins only, company and end user where they choose them', () => {
    const f: CalcForm = {
      ...express(),
      service: 'standard',
      units: '2',
      weight: '250',
      volume: '1,2',
      volumeType: 'CBM',
      ratio: 'CBM300',
      companyId: 4,
      endUserId: 9,
    };
    expect(toCostRequest(f, 'admin')).toMatchObject({
      standardunits: 2,
      standardweight: 250,
      standardvolume: 1.2,
      standardvolumeType: 'CBM',
      calculationRatio: 'CBM300',
      company_id: 4,
      enduser_id: 9,
    });
    const e = toCostRequest(f, 'enduser');
    expect(e.calculationRatio).toBeUndefined();
    expect(e.company_id).toBeUndefined();
    expect(e.enduser_id).toBeUndefined();
    expect(e.palletWeight).toBeUndefined();
    expect(toCostRequest(f, 'carrier')).toMatchObject({ calculationRatio: 'CBM300', enduser_id: 9 });
  });

  it('asks locality and province only in Italy for international quotes', () => {
    const f: CalcForm = {
      ...express(),
      zone: 'international',
      service: 'standard',
      units: '1',
      weight: '10',
      volume: '0',
      volumeType: 'CBM',
      destination: { country: 'DE', postalCode: '80331', locality: 'München', province: 'XX' },
    };
    const body = toCostRequest(f, 'visitor');
    expect(body.destinationLocality).toBeUndefined();
    expect(body.destinationProvince).toBeUndefined();
    expect(body.originLocality).toBe('Milano');
    expect(validate({ ...f, destination: { ...f.destination, locality: '' } }, 'visitor')).toEqual({});
  });

  it('finds every missing or impossible value, keyed like the server', () => {
    const f: CalcForm = { ...express(), pallets: [{ weight: '0', width: '', length: 'abc', height: '90' }] };
    f.destination = { ...f.destination, locality: '' };
    expect(validate(f, 'enduser')).toEqual({
      destinationLocality: 'calculator.required',
      'palletWeight.0': 'calculator.positive',
      'palletWidth.0': 'calculator.required',
      'palletLength.0': 'calculator.positive',
    });
    const s: CalcForm = { ...express(), service: 'standard', units: '1.5', weight: '', volume: '-1', volumeType: 'CBM' };
    expect(validate(s, 'carrier')).toEqual({
      standardunits: 'calculator.integer',
      standardweight: 'calculator.required',
      standardvolume: 'calculator.not_negative',
      calculationRatio: 'calculator.required',
    });
    expect(validate(express(), 'admin')).toEqual({ company_id: 'calculator.required' });
  });

  it("reads weights and measures in the user's language, as the booking form does (1.500 kg in Italian is 1500)", () => {
    const f = express();
    f.pallets = [{ ...f.pallets[0], weight: '1.500', width: '120', length: '80', height: '1,5' }];
    expect(toCostRequest(f, 'enduser', 'it')).toMatchObject({ palletWeight: [1500], palletHeight: [1.5] });
    expect(toCostRequest({ ...f, pallets: [{ ...f.pallets[0], weight: '1,500', height: '1.5' }] }, 'enduser', 'en')).toMatchObject({
      palletWeight: [1500],
      palletHeight: [1.5],
    });
    expect(validate({ ...f, pallets: [{ ...f.pallets[0], weight: '1,2,3' }] }, 'enduser', 'it')).toMatchObject({ 'palletWeight.0': 'calculator.positive' });
    expect(validate({ ...f, pallets: [{ ...f.pallets[0], weight: '-5' }] }, 'enduser', 'it')).toMatchObject({ 'palletWeight.0': 'calculator.positive' });
  });
});
