/**
 * Where each Italian province's capital lies (approximate latitude and longitude) and its region code,
 * for the demo tariffs only: prices grow with the distance from Milano and each region is served by a
 * hub. Keys are the 107 siglas of model/tariffPlaces.ts.
 */
export const PROVINCE_GEO: Record<string, [lat: number, lon: number, region: string]> = {
  TO: [45.07, 7.69, 'PIE'], VC: [45.32, 8.42, 'PIE'], NO: [45.45, 8.62, 'PIE'], CN: [44.39, 7.55, 'PIE'],
  AT: [44.9, 8.21, 'PIE'], AL: [44.91, 8.61, 'PIE'], BI: [45.57, 8.05, 'PIE'], VB: [45.92, 8.55, 'PIE'],
  AO: [45.74, 7.32, 'VDA'],
  VA: [45.82, 8.83, 'LOM'], CO: [45.81, 9.09, 'LOM'], SO: [46.17, 9.87, 'LOM'], MI: [45.46, 9.19, 'LOM'],
  BG: [45.7, 9.67, 'LOM'], BS: [45.54, 10.22, 'LOM'], PV: [45.19, 9.16, 'LOM'], CR: [45.13, 10.02, 'LOM'],
  MN: [45.16, 10.79, 'LOM'], LC: [45.86, 9.4, 'LOM'], LO: [45.31, 9.5, 'LOM'], MB: [45.58, 9.27, 'LOM'],
  BZ: [46.5, 11.35, 'TAA'], TN: [46.07, 11.12, 'TAA'],
  VR: [45.44, 10.99, 'VEN'], VI: [45.55, 11.55, 'VEN'], BL: [46.14, 12.22, 'VEN'], TV: [45.67, 12.24, 'VEN'],
  VE: [45.44, 12.33, 'VEN'], PD: [45.41, 11.88, 'VEN'], RO: [45.07, 11.79, 'VEN'],
  UD: [46.06, 13.24, 'FVG'], GO: [45.94, 13.62, 'FVG'], TS: [45.65, 13.78, 'FVG'], PN: [45.96, 12.66, 'FVG'],
  IM: [43.89, 8.03, 'LIG'], SV: [44.31, 8.48, 'LIG'], GE: [44.41, 8.93, 'LIG'], SP: [44.1, 9.82, 'LIG'],
  PC: [45.05, 9.69, 'EMR'], PR: [44.8, 10.33, 'EMR'], RE: [44.7, 10.63, 'EMR'], MO: [44.65, 10.93, 'EMR'],
  BO: [44.49, 11.34, 'EMR'], FE: [44.84, 11.62, 'EMR'], RA: [44.42, 12.2, 'EMR'], FC: [44.22, 12.04, 'EMR'],
  RN: [44.06, 12.57, 'EMR'],
  MS: [44.04, 10.14, 'TOS'], LU: [43.84, 10.5, 'TOS'], PT: [43.93, 10.92, 'TOS'], FI: [43.77, 11.25, 'TOS'],
  LI: [43.55, 10.31, 'TOS'], PI: [43.72, 10.4, 'TOS'], AR: [43.46, 11.88, 'TOS'], SI: [43.32, 11.33, 'TOS'],
  GR: [42.76, 11.11, 'TOS'], PO: [43.88, 11.1, 'TOS'],
  PG: [43.11, 12.39, 'UMB'], TR: [42.56, 12.65, 'UMB'],
  PU: [43.91, 12.91, 'MAR'], AN: [43.62, 13.52, 'MAR'], MC: [43.3, 13.45, 'MAR'], AP: [42.85, 13.58, 'MAR'],
  FM: [43.16, 13.72, 'MAR'],
  VT: [42.42, 12.11, 'LAZ'], RI: [42.4, 12.86, 'LAZ'], RM: [41.9, 12.5, 'LAZ'], LT: [41.47, 12.9, 'LAZ'],
  FR: [41.64, 13.34, 'LAZ'],
  AQ: [42.35, 13.4, 'ABR'], TE: [42.66, 13.7, 'ABR'], PE: [42.46, 14.21, 'ABR'], CH: [42.35, 14.17, 'ABR'],
  CB: [41.56, 14.66, 'MOL'], IS: [41.59, 14.23, 'MOL'],
  CE: [41.07, 14.33, 'CAM'], BN: [41.13, 14.78, 'CAM'], NA: [40.85, 14.27, 'CAM'], AV: [40.91, 14.79, 'CAM'],
  SA: [40.68, 14.77, 'CAM'],
  FG: [41.46, 15.55, 'PUG'], BA: [41.12, 16.87, 'PUG'], TA: [40.47, 17.24, 'PUG'], BR: [40.63, 17.94, 'PUG'],
  LE: [40.35, 18.17, 'PUG'], BT: [41.23, 16.29, 'PUG'],
  PZ: [40.64, 15.8, 'BAS'], MT: [40.67, 16.6, 'BAS'],
  CS: [39.3, 16.25, 'CAL'], CZ: [38.91, 16.59, 'CAL'], RC: [38.11, 15.65, 'CAL'], KR: [39.08, 17.13, 'CAL'],
  VV: [38.68, 16.1, 'CAL'],
  TP: [38.02, 12.51, 'SIC'], PA: [38.12, 13.36, 'SIC'], ME: [38.19, 15.55, 'SIC'], AG: [37.31, 13.58, 'SIC'],
  CL: [37.49, 14.06, 'SIC'], EN: [37.57, 14.28, 'SIC'], CT: [37.5, 15.09, 'SIC'], RG: [36.93, 14.73, 'SIC'],
  SR: [37.08, 15.29, 'SIC'],
  SS: [40.73, 8.56, 'SAR'], NU: [40.32, 9.33, 'SAR'], CA: [39.22, 9.12, 'SAR'], OR: [39.9, 8.59, 'SAR'],
  SU: [39.17, 8.52, 'SAR'],
};

const MILANO: [number, number] = [45.46, 9.19];

/** Road kilometres from Milano, estimated: great-circle distance × 1.3, plus the ferry leg for the islands. */
export function kmFromMilano(sigla: string): number {
  const [lat, lon, region] = PROVINCE_GEO[sigla];
  const rad = Math.PI / 180;
  const dLat = (lat - MILANO[0]) * rad;
  const dLon = (lon - MILANO[1]) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(MILANO[0] * rad) * Math.cos(lat * rad) * Math.sin(dLon / 2) ** 2;
  const km = 2 * 6371 * Math.asin(Math.sqrt(a)) * 1.3;
  return Math.round(km + (region === 'SIC' || region === 'SAR' ? 250 : 0));
}

/** The demo carrier's hub for each region. */
export const REGION_HUB: Record<string, string> = {
  PIE: 'HUBMI', VDA: 'HUBMI', LOM: 'HUBMI', LIG: 'HUBMI',
  TAA: 'HUBBO', VEN: 'HUBBO', FVG: 'HUBBO', EMR: 'HUBBO',
  TOS: 'HUBRM', UMB: 'HUBRM', MAR: 'HUBRM', LAZ: 'HUBRM', ABR: 'HUBRM', MOL: 'HUBRM',
  CAM: 'HUBNA', PUG: 'HUBNA', BAS: 'HUBNA', CAL: 'HUBNA',
  SIC: 'HUBPA', SAR: 'HUBCA',
};
