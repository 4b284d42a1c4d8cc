import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { buildApi } from '../../../src/interfaces/http/server';
import { withPage } from '../../support/browser';
import { capturingLogger, homeWithRecordedRun, proxyConfig } from '../../support/api';

describe('/docs: Swagger UI over /openapi.json in a real headless Chromium', () => {
  let home: { home: string; cleanup(): void };
  let server: Server;
  let base: string;
  let operations: number;

  beforeAll(async () => {
    home = homeWithRecordedRun();
    const api = buildApi(proxyConfig(), { env: { ...process.env, SVC_HOME: home.home, SVC_STORE: '' }, logger: capturingLogger().logger });
    operations = Object.values(api.openapi.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
    server = createServer(api.handler).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    home.cleanup();
  });

  it("renders every operation, under helmet's CSP, with no console error and no request off the server", async () => {
    const problems: string[] = [];
    await withPage(async (page) => {
      page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
      page.on('pageerror', (e) => problems.push(`page: ${e.message}`));
      page.on('request', (r) => !r.url().startsWith(base) && !r.url().startsWith('data:') && problems.push(`request: ${r.url()}`));
      await page.goto(`${base}/docs/`);
      await page.waitForSelector('.opblock-summary', { timeout: 20_000 });
      expect(await page.locator('.opblock').count()).toBe(operations);
      expect(await page.locator('.info .title').innerText()).toContain('svc API');
      await page.screenshot({ path: `${home.home}/docs.png`, fullPage: false });
    });
    expect(problems).toEqual([]);
  });
});
