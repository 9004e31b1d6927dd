/**
 * SSCC, the Serial Shipping Container Code of a pallet (issue 36 item 3, docs/pallet-labels.md), shared by the
 * server (which numbers the pallets) and the settings screen (which checks the prefix as it is typed).
 *
 * 18 digits: the extension digit, the carrier's GS1 company prefix (7 to 10 digits), a serial reference padded
 * with zeros so that the first 17 digits are complete, then the GS1 mod-10 check digit. On a GS1-128 barcode
 * it follows the application identifier (00).
 */

/**
 * The extension digit we put first. GS1 leaves it to the company (it only widens the serial range); the portal
 * keeps one counter per carrier, so a fixed 0 suffices and keeps the numbers easy to read back.
 */
export const SSCC_EXTENSION_DIGIT = 0;

/** A GS1 company prefix as GS1 assigns them: 7 to 10 digits, nothing else. */
export const GS1_PREFIX_PATTERN = /^\d{7,10}$/;
export const isGs1CompanyPrefix = (v: string) => GS1_PREFIX_PATTERN.test(v);

/**
 * The GS1 mod-10 check digit of a string of digits (GTIN, GLN, SSCC all use it): from the rightmost digit,
 * weights 3, 1, 3, 1…; the check digit brings the weighted sum up to a multiple of 10.
 */
export function gs1CheckDigit(digits: string): number {
  if (!/^\d+$/.test(digits)) throw new RangeError('digits only');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = digits.charCodeAt(digits.length - 1 - i) - 48;
    sum += d * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** The digits the serial reference has after a prefix of this length (17 − extension − prefix): 9 for 7, 6 for 10. */
export const serialDigits = (prefix: string) => 16 - prefix.length;

/** The highest serial a prefix leaves room for: 999 999 999 with a 7-digit prefix, 999 999 with a 10-digit one. */
export const maxSerial = (prefix: string) => 10 ** serialDigits(prefix) - 1;

/** The SSCC of a serial under a prefix; a RangeError when the prefix is not one or the serial does not fit. */
export function buildSscc(prefix: string, serial: number, extension = SSCC_EXTENSION_DIGIT): string {
  if (!isGs1CompanyPrefix(prefix)) throw new RangeError('not a GS1 company prefix');
  if (!Number.isInteger(serial) || serial < 0 || serial > maxSerial(prefix)) throw new RangeError('serial out of range');
  if (!Number.isInteger(extension) || extension < 0 || extension > 9) throw new RangeError('extension digit 0-9');
  const body = `${extension}${prefix}${String(serial).padStart(serialDigits(prefix), '0')}`;
  return body + gs1CheckDigit(body);
}

/** Whether 18 digits are an SSCC whose check digit is right. */
export const isSscc = (v: string) => /^\d{18}$/.test(v) && gs1CheckDigit(v.slice(0, 17)) === Number(v[17]);

/** The human-readable line under the barcode: the AI in brackets, then the 18 digits. */
export const ssccText = (sscc: string) => `(00) ${sscc}`;
