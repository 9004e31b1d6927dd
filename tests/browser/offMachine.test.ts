import { expect, it } from 'vitest';
import { describeInBrowser } from './harness.js';

/**
 * The tests' own guard (harness.ts TEST_CHROMIUM_FLAGS, `newPage`): a request for another host fails in the
 * browser, by name or by address, and is recorded in `outside` (which fails the test that made it).
 */
describeInBrowser('requests that would leave the machine', (ctx) => {
  it('fail in the browser and are recorded; the portal itself loads', async () => {
    const { page, outside } = await ctx.page();
    // a page without the portal's Content-Security-Policy (which already refuses other hosts to the app's own scripts)
    await page.goto('about:blank');
    const tried = await page.evaluate(async () => {
      const results: string[] = [];
      for (const url of ['http://example.com/probe.js', 'https://93.184.215.14/probe.js', 'http://10.0.0.1:8080/probe']) {
        try {
          await fetch(url, { mode: 'no-cors', signal: AbortSignal.timeout(10_000) });
          results.push(`${url} answered`);
        } catch {
          results.push(`${url} failed`);
        }
      }
      return results;
    });
    expect(tried).toEqual(['http://example.com/probe.js failed', 'https://93.184.215.14/probe.js failed', 'http://10.0.0.1:8080/probe failed']);
    expect(outside).toEqual(['http://example.com/probe.js', 'https://93.184.215.14/probe.js', 'http://10.0.0.1:8080/probe']);

    // the portal's own requests are not recorded
    await page.goto(`${ctx.portal.url}/favicon.svg`);
    expect(await page.evaluate(async () => (await fetch('/favicon.svg')).status)).toBe(200);
    expect(outside).toHaveLength(3);
    // nor can a navigation leave
    await expect(page.goto('http://portal.example.com/')).rejects.toThrow();
    expect(outside).toEqual(expect.arrayContaining(['http://portal.example.com/']));
    outside.length = 0; // this test made them on purpose
  });
});
