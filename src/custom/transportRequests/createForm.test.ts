import { describe, expect, it } from 'vitest';
import {
  errorsOfStep,
  firstWrongStep,
  newShipment,
  quotedFigures,
  readDecimal,
  readHandOver,
  serverFieldPath,
  stepOfPath,
  toFormData,
  validate,
  type HandOver,
  type ShipmentForm,
} from './createForm';

const handOver: HandOver = {
  costRequest: {
    zone: 'national',
    service: 'palletExpress',
    flow: 'OUT',
    adr: 0,
    taillift: 1,
    originCountry: 'it',
    originPostalCode: '20121',
    originLocality: 'Milano',
    originProvince: 'MI',
    destinationCountry: 'IT',
    destinationPostalCode: '00184',
    destinationLocality: 'Roma',
    destinationProvince: 'RM',
    palletWeight: [250],
    palletWidth: [120],
    palletLength: [80],
    palletHeight: [90],
  },
  shipmentType: 'palletExpress',
  shipmentClass: 'GOLD',
  priceList: {
    x_total_gold_sell: 130.9,
    x_total_silver_sell: 93.5,
    admin_fee: 4.5,
    max_leadtime_sell_gold: 1,
    max_leadtime_sell_silver: 2,
    total_silver_buy: null,
    total_gold_buy: null,
    max_leadtime_buy_silver: null,
    max_leadtime_buy_gold: null,
    total_silver_sell: null,
    total_gold_sell: null,
  },
  palletData: [{ row: 1, weight: 250, width: 120, length: 80, height: 90, measure: '120×80×90', type: 'p300' }],
};

const filled = (s: ShipmentForm): ShipmentForm => ({
  ...s,
  shipperref: 'R1',
  pickup: {
    ...s.pickup,
    date: '2099-01-01',
    timeFrom: '08:00',
    timeTo: '12:00',
    locationName: 'A',
    address: 'Via A 1',
    postalCode: s.pickup.postalCode || '40133',
  },
  delivery: { ...s.delivery, locationName: 'B', address: 'Via B 2', postalCode: s.delivery.postalCode || '00184' },
});

describe('the create form', () => {
  it('reads the calculator hand-over from state and query, and refuses an incomplete one', () => {
    expect(readHandOver(handOver, new URLSearchParams('shipmentType=palletExpress&shipmentClass=SILVER'))?.shipmentClass).toBe('SILVER');
    expect(readHandOver(null, new URLSearchParams('shipmentType=standard'))).toBeNull();
    expect(readHandOver({ ...handOver, priceList: undefined }, new URLSearchParams())).toBeNull();
  });

  it('shows the class price, the admin fee, their total to the cent and the lead time', () => {
    expect(quotedFigures(handOver)).toEqual({ price: 130.9, fee: 4.5, total: 135.4, leadTime: 1 });
    expect(quotedFigures({ ...handOver, shipmentClass: 'SILVER' })).toEqual({ price: 93.5, fee: 4.5, total: 98, leadTime: 2 });
  });

  it("takes the quote's places for pickup and delivery", () => {
    const s = newShipment(handOver, { locationName: 'Rossi', postalCode: '40133' });
    expect(s.pickup).toMatchObject({ locationName: 'Rossi', postalCode: '20121', city: 'Milano', province: 'MI', country: 'IT' });
    expect(s.delivery).toMatchObject({ postalCode: '00184', city: 'Roma', country: 'IT' });
    expect(s.taillift).toBe(true);
  });

  it('asks for every required field, the goods only without a quote, and checks times and files', () => {
    const empty = validate([newShipment(null)], [{ key: 0, type: '', file: null }], { handOver: false, today: '2030-01-01' });
    expect(Object.keys(empty).sort()).toEqual([
      's0.delivery.address',
      's0.delivery.locationName',
      's0.delivery.postalCode',
      's0.pickup.address',
      's0.pickup.date',
      's0.pickup.locationName',
      's0.pickup.postalCode',
      's0.pickup.timeFrom',
      's0.pickup.timeTo',
      's0.shipperref',
      's0.units',
      's0.volume',
      's0.volumeType',
      's0.weight',
    ]);
    const quoted = filled(newShipment(handOver));
    expect(validate([quoted], [], { handOver: true, today: '2030-01-01' })).toEqual({});
    const late = { ...quoted, pickup: { ...quoted.pickup, date: '2029-12-31', timeTo: '07:00' } };
    expect(validate([late], [], { handOver: true, today: '2030-01-01' })).toEqual({
      's0.pickup.date': 'requests.not_past',
      's0.pickup.timeTo': 'requests.time_order',
    });
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.pdf');
    expect(validate([quoted], [{ key: 0, type: '', file: big }], { handOver: true, today: '2030-01-01' })).toEqual({
      'doc0.type': 'requests.required',
      'doc0.file': 'requests.max_file',
    });
    const hand = { ...filled(newShipment(null)), units: '3', weight: '12,5', volume: '0', volumeType: 'FTL' as const };
    expect(validate([hand], [], { handOver: false, today: '2030-01-01' })).toEqual({});
    expect(validate([{ ...hand, weight: '0' }], [], { handOver: false, today: '2030-01-01' })).toEqual({ 's0.weight': 'requests.invalid_number' });
  });

  it("sends per-shipment lists, the quote's fields and price, and each document with its type", () => {
    const doc = new File(['x'], 'ddt.pdf');
    const f = toFormData(
      [filled(newShipment(handOver))],
      [
        { key: 0, type: 2, file: doc },
        { key: 1, type: '', file: null },
      ],
      ' fragile ',
      handOver,
    );
    expect(f.getAll('shipperref[]')).toEqual(['R1']);
    expect(f.getAll('pickuppostalcode[]')).toEqual(['20121']);
    expect(f.getAll('taillift[]')).toEqual(['1']);
    expect(f.get('service')).toBe('palletExpress');
    expect(f.get('shipmentclass')).toBe('GOLD');
    expect(f.get('cost')).toBe('130.90');
    expect(f.get('admin_fees')).toBe('4.50');
    expect(f.getAll('palletWeight[]')).toEqual(['250']);
    expect(f.getAll('units[]')).toEqual([]);
    expect(f.get('notes')).toBe('fragile');
    expect(f.getAll('doctypes[]')).toEqual(['2']);
    expect((f.getAll('documents[]')[0] as File).name).toBe('ddt.pdf');
    const visitor = toFormData([filled(newShipment(handOver))], [], '', handOver, {
      company: 'Verdi',
      firstname: 'L',
      lastname: 'V',
      email: 'l@v.it',
      phone: '333',
    });
    expect([visitor.get('shipmentprice'), visitor.get('adminfee'), visitor.get('cost'), visitor.get('visitor_company')]).toEqual([
      '130.90',
      '4.50',
      null,
      'Verdi',
    ]);
    const hand = toFormData([{ ...filled(newShipment(null)), units: '3', weight: '12,5', volume: '1,25', volumeType: 'CBM' }], [], '', null);
    expect([hand.getAll('weight[]'), hand.getAll('volume[]'), hand.get('service')]).toEqual([['12.5'], ['1.25'], null]);
  });

  it("maps the server's field errors onto the form", () => {
    expect(serverFieldPath('pickupdate')).toBe('s0.pickup.date');
    expect(serverFieldPath('deliverypostalcode.2')).toBe('s2.delivery.postalCode');
    expect(serverFieldPath('shipperref.1')).toBe('s1.shipperref');
    expect(serverFieldPath('visitor_company')).toBe('contact.company');
    expect(serverFieldPath('documents')).toBeNull();
  });

  it("reads a decimal in the user's language: its own mark is the decimal one, the other groups thousands", () => {
    expect(readDecimal('350,5', 'it')).toBe(350.5);
    expect(readDecimal('350,5', 'fr')).toBe(350.5);
    expect(readDecimal('350.5', 'en')).toBe(350.5);
    // The other mark before three digits groups them; otherwise it is read as a decimal mark.
    expect(readDecimal('1.500', 'it')).toBe(1500);
    expect(readDecimal('1.500,25', 'it')).toBe(1500.25);
    expect(readDecimal('1,500', 'en')).toBe(1500);
    expect(readDecimal('1,500.5', 'en')).toBe(1500.5);
    expect(readDecimal('1 500,5', 'fr')).toBe(1500.5);
    expect(readDecimal('1\u202f500,5', 'fr')).toBe(1500.5);
    expect(readDecimal('2.4', 'it')).toBe(2.4);
    expect(readDecimal('350,5', 'en')).toBe(350.5);
    expect(readDecimal(' 12 ', 'it')).toBe(12);
    for (const bad of ['', 'abc', '1,2,3', '1.5.', '-3', '1,2345', '1234567890', '1.500.2']) expect(readDecimal(bad, 'it')).toBeNull();
    // The form checks and sends the number with a dot.
    const hand = { ...filled(newShipment(null)), units: '3', weight: '1.500,5', volume: '2', volumeType: 'CBM' as const };
    expect(validate([hand], [], { handOver: false, today: '2030-01-01', locale: 'it' })).toEqual({});
    expect(toFormData([hand], [], '', null, undefined, 'it').getAll('weight[]')).toEqual(['1500.5']);
    expect(toFormData([{ ...hand, weight: '1,500.5' }], [], '', null, undefined, 'en').getAll('weight[]')).toEqual(['1500.5']);
    expect(validate([{ ...hand, weight: '1,2,3' }], [], { handOver: false, today: '2030-01-01', locale: 'it' })).toEqual({
      's0.weight': 'requests.invalid_number',
    });
  });

  it('puts each field in its step, and a send with errors opens the first wrong one', () => {
    expect(stepOfPath('s0.shipperref')).toBe('shipment');
    expect(stepOfPath('s1.weight')).toBe('shipment');
    expect(stepOfPath('s0.pickup.date')).toBe('pickup');
    expect(stepOfPath('s2.delivery.postalCode')).toBe('delivery');
    expect(stepOfPath('doc0.type')).toBe('notes');
    expect(stepOfPath('contact.email')).toBe('notes');
    expect(firstWrongStep({})).toBeNull();
    expect(firstWrongStep({ 'contact.email': 'x', 's1.delivery.address': 'x', 's0.pickup.date': 'x' })).toBe('pickup');
    expect(firstWrongStep({ 'doc0.type': 'x', 's1.units': 'x' })).toBe('shipment');
    expect(errorsOfStep({ 's0.pickup.date': 'a', 's0.shipperref': 'b', 's0.pickup.timeFrom': 'c' }, 'pickup')).toEqual({
      's0.pickup.date': 'a',
      's0.pickup.timeFrom': 'c',
    });
  });
});
