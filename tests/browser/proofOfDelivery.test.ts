import { beforeAll, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { API_PASSWORD, animationsDone, describeInBrowser, shot, visibleWhereItIs } from './harness.js';
import { axeProblems } from './axe.js';
import { trackingPath } from '../../model/tracking.js';

/**
 * Issue 36 items 1–3 on the request screen, in Italian: on a 390 × 844 phone the carrier marks a confirmed
 * request picked up (one tap on the bar at the bottom), then delivered with the receiver's name and a signature
 * drawn on the screen (touch, cleared, then the mouse); the proof shows on the request. A second request is
 * delivered with a photo of the signed document (a real JPEG the browser makes), after a file over 5 MB is
 * refused before sending. The end user who booked sees the proof on its request; public tracking says
 * "Consegnata" with the date and shows neither the name nor the image. The dialog fits the phone and passes axe.
 */
const PHONE = { width: 390, height: 844 };
const RECEIVER = 'Mario Bianchi';
const RESERVATION = 'Merce danneggiata: 1 pallet con angolo schiacciato';
const PHOTO_RECEIVER = 'Giulia Verdi';

/** The request screen's axe check leaves out the shipment cards' goods tables (enduserOpenRequest.test.ts says why). */
const DETAIL = { exclude: ['[data-testid^="shipment-card"]'] };

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();
const status = (page: Page) => page.getByTestId('request-header').getByTestId('request-status').textContent();

/** Dark pixels of a loaded `<img>` (drawn into a canvas in the page): a blank white signature has none. */
const darkPixels = (img: Locator) =>
  img.evaluate((el: HTMLImageElement) => {
    const c = document.createElement('canvas');
    c.width = el.naturalWidth;
    c.height = el.naturalHeight;
    const g = c.getContext('2d')!;
    g.drawImage(el, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let dark = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i]! < 128 && d[i + 3]! > 0) dark++;
    return dark;
  });

/** A stroke on the canvas as a finger makes it: pointer events of type touch, from left to right across the middle. */
async function touchStroke(canvas: Locator) {
  const box = (await canvas.boundingBox())!;
  const y = box.y + box.height / 2;
  const at = (i: number) => ({
    clientX: box.x + 20 + i * 20,
    clientY: y + (i % 2 ? 10 : -10),
    pointerId: 7,
    pointerType: 'touch',
    isPrimary: true,
    bubbles: true,
  });
  await canvas.dispatchEvent('pointerdown', at(0));
  for (let i = 1; i < 8; i++) await canvas.dispatchEvent('pointermove', at(i));
  await canvas.dispatchEvent('pointerup', at(8));
}

/** A signature with the mouse: a zigzag across the box. */
async function mouseSignature(page: Page, canvas: Locator) {
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + 15, box.y + box.height * 0.7);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 15 + i * ((box.width - 30) / 12), box.y + box.height * (i % 2 ? 0.25 : 0.75), { steps: 3 });
  await page.mouse.up();
}

describeInBrowser('proof of delivery on a phone, in Italian (issue 36)', (ctx) => {
  const api = async (method: 'GET' | 'POST', url: string, token?: string, body?: unknown) => {
    const res = await ctx.portal.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { 'x-api-password': API_PASSWORD, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload: body as any,
    });
    return {
      status: res.statusCode,
      headers: res.headers,
      raw: res.rawPayload,
      body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : null,
    };
  };
  const tokenOf = async (email: string) => (await api('POST', '/visitor/login', undefined, { email, password: 'demo1234' })).body.token as string;

  /** Two priced open requests the demo end user booked with the demo carrier, confirmed by the carrier; with their delivery postal codes. */
  let requests: Array<{ id: number; postal_code: string }> = [];
  let carrierToken = '';
  beforeAll(async () => {
    const db = ctx.portal.db.db;
    const carrier = await db.selectFrom('users').select('company_id').where('email', '=', 'carrier@portal.demo').executeTakeFirstOrThrow();
    requests = await db
      .selectFrom('transport_requests as tr')
      .innerJoin('users as u', 'u.id', 'tr.user_id')
      .innerJoin('shipments as s', 's.transport_request_id', 'tr.id')
      .innerJoin('shipment_addresses as a', (j) => j.onRef('a.shipment_id', '=', 's.id').on('a.kind', '=', 'delivery'))
      .select(['tr.id', 'a.postal_code'])
      .where('u.email', '=', 'enduser@portal.demo')
      .where('tr.carrier_id', '=', carrier.company_id!)
      .where('tr.transport_request_status_id', '=', 1)
      .where('tr.cost', 'is not', null)
      .orderBy('tr.id')
      .limit(2)
      .execute();
    expect(requests).toHaveLength(2);
    carrierToken = await tokenOf('carrier@portal.demo');
    for (const r of requests) {
      expect(
        (await api('POST', '/company/transport_requests/updateTransportRequestStatus', carrierToken, { id: r.id, transport_request_status_id: 3 })).status,
      ).toBe(200);
    }
  });

  it('the carrier marks a confirmed request picked up with one tap, then delivered with a drawn signature; the proof shows', async () => {
    const { id } = requests[0]!;
    const { page, errors } = await ctx.page({ viewport: PHONE });
    await ctx.login(page, 'carrier@portal.demo', { at: `/transport-requests-visuals/${id}/1` });
    await page.getByTestId('request-detail').waitFor();
    expect(await status(page)).toBe('Confermata');

    // The next step is one full-width button at the bottom of the phone's screen, where it is, without scrolling.
    const pickUp = page.getByTestId('progress-bar').getByTestId('detail-picked-up');
    await pickUp.waitFor();
    expect(await pickUp.textContent()).toBe('Ritirata');
    expect(await visibleWhereItIs(pickUp)).toBe(true);
    expect((await pickUp.boundingBox())!.width).toBeGreaterThan(PHONE.width / 2);
    expect(await fitsWidth(page)).toBe(true);
    expect(await axeProblems(page, 'confirmed request with the pick-up bar (carrier, phone)', DETAIL)).toEqual([]);
    await shot(page, 'pod-confirmed-phone');

    // One tap: in transit, the toast names the request, the screen stays on it with the new status and its timeline entry.
    await pickUp.click();
    await toast(page, `Richiesta n. ${id} ritirata: in transito`);
    await expect.poll(() => status(page)).toBe('In transito');
    expect(page.url()).toContain(`/transport-requests-visuals/${id}/1`);
    await expect.poll(() => page.getByTestId('timeline-entry').last().textContent()).toContain('In transito');
    await page.getByTestId('detail-picked-up-at-value').waitFor();
    const stored = await ctx.portal.db.db.selectFrom('transport_requests').select('transport_request_status_id').where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.transport_request_status_id).toBe(5);

    // "Consegnata" opens the proof of delivery, full screen.
    const deliver = page.getByTestId('progress-bar').getByTestId('detail-delivered');
    await deliver.waitFor();
    expect(await visibleWhereItIs(deliver)).toBe(true);
    await deliver.click();
    const dialog = page.getByTestId('pod-dialog');
    await dialog.getByRole('heading', { name: `Consegna della richiesta n. ${id}` }).waitFor();
    await animationsDone(page);
    expect((await dialog.getByRole('dialog').boundingBox())!.width).toBe(PHONE.width);

    // Nothing filled: the name and the signature are asked for, nothing is sent.
    await page.getByTestId('pod-submit').click();
    await dialog.getByText('Scrivi il nome di chi riceve la merce.').waitFor();
    expect(await page.getByTestId('pod-signature-hint').textContent()).toBe('Fai firmare il destinatario nel riquadro.');
    expect(await fitsWidth(page)).toBe(true);
    expect(await axeProblems(page, 'proof of delivery dialog with its errors (phone)')).toEqual([]);

    // A finger draws, "Cancella" clears; then the mouse signs.
    const canvas = page.getByTestId('pod-signature');
    await touchStroke(canvas);
    await expect.poll(() => canvas.getAttribute('data-drawn')).toBe('true');
    await page.getByTestId('pod-signature-clear').click();
    await expect.poll(() => canvas.getAttribute('data-drawn')).toBe('false');
    await mouseSignature(page, canvas);
    await expect.poll(() => canvas.getAttribute('data-drawn')).toBe('true');
    await page.getByTestId('pod-name').fill(RECEIVER);
    await page.getByTestId('pod-notes').fill(RESERVATION);
    expect(await axeProblems(page, 'proof of delivery dialog, signed (phone)')).toEqual([]);
    await shot(page, 'pod-dialog-signed-phone');
    await page.getByTestId('pod-submit').click();
    await toast(page, `Richiesta n. ${id} consegnata`);
    await expect.poll(() => status(page)).toBe('Consegnata');
    await expect.poll(() => page.getByTestId('timeline-entry').last().textContent()).toContain('Consegnata');

    // The proof on the request: name, date, reservation, the signature read with the carrier's bearer.
    const card = page.getByTestId('pod-card');
    await card.waitFor();
    expect(await card.getByTestId('pod-received-by').textContent()).toBe(RECEIVER);
    expect(await card.getByTestId('pod-notes').textContent()).toBe(RESERVATION);
    expect(await card.getByTestId('pod-delivered-at').textContent()).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    const img = card.getByTestId('pod-image');
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
    expect(await img.getAttribute('src')).toMatch(/^blob:/);
    expect(await darkPixels(img)).toBeGreaterThan(200);
    expect(await page.getByTestId('progress-bar').count()).toBe(0);
    expect(await fitsWidth(page)).toBe(true);
    expect(await axeProblems(page, 'delivered request with its proof (carrier, phone)', DETAIL)).toEqual([]);
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'pod-delivered-phone');

    // What the server kept: a PNG of the drawn size, not a blank canvas.
    const file = await api('GET', `/company/transport_requests/pod/${id}`, carrierToken);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.raw.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([file.raw.readUInt32BE(16), file.raw.readUInt32BE(20)]).toEqual([600, 240]);
    const blank = await page.evaluate(async () => {
      const c = document.createElement('canvas');
      c.width = 600;
      c.height = 240;
      const g = c.getContext('2d')!;
      g.fillStyle = '#fff';
      g.fillRect(0, 0, 600, 240);
      const b = await new Promise<Blob>((ok) => c.toBlob((x) => ok(x!), 'image/png'));
      return Array.from(new Uint8Array(await b.arrayBuffer()));
    });
    expect(Buffer.from(blank).equals(file.raw)).toBe(false);
    expect(file.raw.length).toBeGreaterThan(blank.length);
    expect(errors).toEqual([]);
  });

  it('a second request is delivered with a photo of the signed document; a file over 5 MB is refused before sending', async () => {
    const { id } = requests[1]!;
    const { page, errors } = await ctx.page({ viewport: PHONE });
    await ctx.login(page, 'carrier@portal.demo', { at: `/transport-requests-visuals/${id}/1` });

    // Picked up at another time (the driver tells the office later): the clock beside "Ritirata" asks for it.
    await page.getByTestId('progress-bar').getByTestId('detail-picked-up-at').click();
    const when = page.getByTestId('picked-up-time');
    await when.waitFor();
    /** `<input type=datetime-local>`'s value for now + `minutes`, in the browser's zone, and its ISO instant. */
    const local = (minutes: number) =>
      page.evaluate((m) => {
        const d = new Date(Date.now() + m * 60_000);
        const p = (n: number) => String(n).padStart(2, '0');
        d.setSeconds(0, 0);
        return { value: `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`, iso: d.toISOString() };
      }, minutes);
    await when.fill((await local(120)).value);
    await page.getByTestId('picked-up-submit').click();
    await page.getByTestId('picked-up-dialog').getByText('Non può essere nel futuro.').waitFor();
    const earlier = await local(-90);
    await when.fill(earlier.value);
    await page.getByTestId('picked-up-submit').click();
    await toast(page, `Richiesta n. ${id} ritirata: in transito`);
    await expect.poll(() => status(page)).toBe('In transito');
    const picked = await ctx.portal.db.db.selectFrom('transport_requests').select('picked_up_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(new Date(picked.picked_up_at!).toISOString()).toBe(earlier.iso);
    await page.getByTestId('progress-bar').getByTestId('detail-delivered').click();
    const dialog = page.getByTestId('pod-dialog');
    await dialog.getByRole('heading', { name: `Consegna della richiesta n. ${id}` }).waitFor();
    await page.getByTestId('pod-name').fill(PHOTO_RECEIVER);
    await page.getByTestId('pod-how-file').click();
    const input = page.getByTestId('pod-file');
    expect(await input.getAttribute('accept')).toBe('image/*,application/pdf');
    expect(await input.getAttribute('capture')).toBe('environment');
    expect(await page.getByTestId('pod-file-hint').textContent()).toBe('Foto (JPEG, PNG, WebP) o PDF, al massimo 5 MB.');

    // Too large: told at once with the file's size, and the dialog does not send it.
    await input.setInputFiles({ name: 'foto-enorme.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(6 * 1024 * 1024, 1) });
    await expect
      .poll(() => page.getByTestId('pod-file-hint').textContent())
      .toBe('Il file pesa 6 MB: il massimo è 5 MB. Scatta una foto a risoluzione più bassa o scegli un altro file.');
    expect(await page.getByTestId('pod-file-chosen').textContent()).toBe('foto-enorme.jpg · 6 MB');
    await page.getByTestId('pod-submit').click();
    await expect.poll(() => page.getByTestId('pod-file-hint').textContent()).toContain('Il file pesa 6 MB');
    const still = await ctx.portal.db.db.selectFrom('transport_requests').select('transport_request_status_id').where('id', '=', id).executeTakeFirstOrThrow();
    expect(still.transport_request_status_id).toBe(5);

    // A file that says PNG but is not one passes the browser's checks; the server's word lands on the field, in Italian.
    await input.setInputFiles({ name: 'falsa.png', mimeType: 'image/png', buffer: Buffer.from('questo non è un PNG, solo testo') });
    await expect.poll(() => page.getByTestId('pod-file-hint').textContent()).toBe('Foto (JPEG, PNG, WebP) o PDF, al massimo 5 MB.');
    await page.getByTestId('pod-submit').click();
    await expect
      .poll(() => page.getByTestId('pod-file-hint').textContent())
      .toBe('Il documento di consegna deve essere una foto JPEG, PNG o WebP oppure un PDF.');
    expect(await dialog.isVisible()).toBe(true);
    const after = await ctx.portal.db.db.selectFrom('transport_requests').select('transport_request_status_id').where('id', '=', id).executeTakeFirstOrThrow();
    expect(after.transport_request_status_id).toBe(5);

    // A real photo: a JPEG the browser draws (a sheet with a signature line), as a phone's camera would give one.
    const jpeg = Buffer.from(
      await page.evaluate(async () => {
        const c = document.createElement('canvas');
        c.width = 640;
        c.height = 480;
        const g = c.getContext('2d')!;
        g.fillStyle = '#f4f1ea';
        g.fillRect(0, 0, 640, 480);
        g.fillStyle = '#222';
        g.font = '28px sans-serif';
        g.fillText('DDT 4711 — firmato', 40, 80);
        g.fillRect(40, 400, 400, 3);
        const b = await new Promise<Blob>((ok) => c.toBlob((x) => ok(x!), 'image/jpeg', 0.85));
        return Array.from(new Uint8Array(await b.arrayBuffer()));
      }),
    );
    await input.setInputFiles({ name: 'ddt-firmato.jpg', mimeType: 'image/jpeg', buffer: jpeg });
    await expect.poll(() => page.getByTestId('pod-file-hint').textContent()).toBe('Foto (JPEG, PNG, WebP) o PDF, al massimo 5 MB.');
    expect(await page.getByTestId('pod-file-chosen').textContent()).toMatch(/^ddt-firmato\.jpg · \d+ kB$/);
    expect(await fitsWidth(page)).toBe(true);
    expect(await axeProblems(page, 'proof of delivery dialog with a photo (phone)')).toEqual([]);
    await shot(page, 'pod-dialog-photo-phone');
    await page.getByTestId('pod-submit').click();
    await toast(page, `Richiesta n. ${id} consegnata`);
    await expect.poll(() => status(page)).toBe('Consegnata');
    const card = page.getByTestId('pod-card');
    expect(await card.getByTestId('pod-received-by').textContent()).toBe(PHOTO_RECEIVER);
    expect(await card.getByTestId('pod-notes').textContent()).toBe('Nessuna riserva');
    const img = card.getByTestId('pod-image');
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(640);

    // The server keeps the photo as it was sent.
    const file = await api('GET', `/company/transport_requests/pod/${id}`, carrierToken);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.raw.equals(jpeg)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('the end user who booked sees the proof on its request (desktop)', async () => {
    const { id } = requests[0]!;
    const { page, errors } = await ctx.page({ viewport: { width: 1280, height: 900 } });
    await ctx.login(page, 'enduser@portal.demo', { at: `/transport-requests-visuals/${id}/1` });
    const card = page.getByTestId('pod-card');
    await card.waitFor();
    expect(await status(page)).toBe('Consegnata');
    expect(await card.getByTestId('pod-received-by').textContent()).toBe(RECEIVER);
    expect(await card.getByTestId('pod-notes').textContent()).toBe(RESERVATION);
    const img = card.getByTestId('pod-image');
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(600);
    expect(await darkPixels(img)).toBeGreaterThan(200);
    // No carrier's step for the customer.
    expect(await page.getByTestId('detail-delivered').count()).toBe(0);
    expect(await page.getByTestId('detail-picked-up').count()).toBe(0);
    expect(await axeProblems(page, 'delivered request with its proof (end user, desktop)', DETAIL)).toEqual([]);
    await shot(page, 'pod-enduser-desktop');
    expect(errors).toEqual([]);
  });

  it('public tracking says "Consegnata" with the date, and shows neither the receiver nor the image', async () => {
    const { id, postal_code } = requests[0]!;
    const { page, errors } = await ctx.page({ viewport: PHONE });
    await page.goto(`${ctx.portal.url}${trackingPath(String(id), postal_code)}`);
    await page.getByTestId('tracking-result').waitFor();
    expect(await page.getByTestId('tracking-status').textContent()).toBe('Consegnata');
    expect(await page.getByTestId('tracking-delivered-at').textContent()).toMatch(/^Consegnata il \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    const events = await page.getByRole('list', { name: 'Cronologia della spedizione' }).getByRole('listitem').allTextContents();
    expect(events.at(-1)).toMatch(/^Stato: Consegnata\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    const body = (await page.locator('body').innerText()) ?? '';
    for (const secret of [RECEIVER, 'Bianchi', RESERVATION, 'danneggiata']) expect(body).not.toContain(secret);
    // No picture in the result, and none read from a blob (a POD file would be); the page's only image is the brand's.
    expect(await page.getByTestId('tracking-result').locator('img').count()).toBe(0);
    expect(await page.locator('img[src^="blob:"]').count()).toBe(0);
    expect(await fitsWidth(page)).toBe(true);
    expect(await axeProblems(page, 'tracking of a delivered request (phone)', { landmarks: true })).toEqual([]);
    await shot(page, 'pod-tracking-phone');
    expect(errors).toEqual([]);
  });
});
