import { launchBrowser, login, newPage, startPortal } from './browser/harness.js';
const portal = await startPortal();
const browser = await launchBrowser();
const roles = (process.argv[2] ?? 'admin,carrier,enduser').split(',');
for (const role of roles) {
  const { page, context, errors } = await newPage(browser, { viewport: { width: 1366, height: 850 } });
  await login(page, portal.url, `${role}@portal.demo`);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `/tmp/review/${role}-00-home.png` });
  const hrefs = await page.$$eval('a[href^="#/"]', (as) => [...new Set(as.map((a) => a.getAttribute('href')!))]);
  // open collapsed groups
  for (const g of await page.$$('[data-testid$="-group"], .MuiListItemButton-root[aria-expanded=false]')) { await g.click().catch(() => {}); }
  const more = await page.$$eval('a[href^="#/"]', (as) => [...new Set(as.map((a) => a.getAttribute('href')!))]);
  const all = [...new Set([...hrefs, ...more])];
  console.log(role, all.join(' '));
  let i = 1;
  for (const h of all) {
    await page.goto(`${portal.url}/${h}`);
    await page.waitForTimeout(1200);
    const name = h.replace(/[^a-z0-9]+/gi, '_');
    await page.screenshot({ path: `/tmp/review/${role}-${String(i++).padStart(2, '0')}-${name}.png` });
  }
  if (errors.length) console.log(role, 'console errors', errors.slice(0, 5));
  await context.close();
}
await browser.close();
await portal.close();
