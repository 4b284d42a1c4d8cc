import { createHash } from 'node:crypto';
import type { AgencyPull, AgencyReview } from '../../../src/domain/agency/pulled-documents';
import { IntegrityError, InvalidInputError, NotFoundError } from '../../../src/domain/errors';
import type { AgencyStore } from '../../../src/ports/agency-store';

export interface AgencyStoreHarness {
  /** An empty store. */
  store: AgencyStore;
  /** How the store's messages name it: its directory, or its URL with the password masked. */
  location: string;
  /** A second store on the same data, as another process would open it; cleanup closes it. */
  twin(): AgencyStore;
  /**
   * Changes the stored bytes of document `sha256` behind the store's back (a byte flipped on disk, an UPDATE), and
   * returns where the store's agency-document-corrupt message must say they are.
   */
  corrupt(sha256: string): Promise<string>;
  /** Closes the stores and removes what the harness made. */
  cleanup(): Promise<void>;
}

const sha256Of = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

/** Pull n of `provider`, as a pull records it (a document fetched, one unchanged, one failed; a finding; a verdict). */
export function pullOf(provider: string, n: number): Omit<AgencyPull, 'seq'> {
  const sha256 = sha256Of(`document ${n}`);
  return {
    provider,
    started: `2026-10-${String(n).padStart(2, '0')}T06:00:00.000Z`,
    finished: `2026-10-${String(n).padStart(2, '0')}T06:00:03.250Z`,
    url: `https://trust.${provider}.example`,
    tls: { fingerprint256: 'AB:CD:EF', subject: `CN=trust.${provider}.example`, issuer: 'CN=Agency Test CA', validTo: 'Dec 31 23:59:59 2027 GMT' },
    outcome: 'partial',
    documents: [
      {
        name: 'cpo',
        url: `https://trust.${provider}.example/fedramp/cpo`,
        outcome: 'fetched',
        status: 200,
        attempts: 1,
        stored: {
          sha256,
          bytes: 11,
          url: `https://trust.${provider}.example/fedramp/cpo`,
          fetchedAt: '2026-10-01T06:00:01.000Z',
          etag: `"cpo-${n}"`,
          delivery: { contentType: 'application/json; charset=utf-8', nosniff: true },
        },
      },
      { name: 'vdr', url: `https://trust.${provider}.example/fedramp/vdr`, outcome: 'failed', status: 500, attempts: 3, error: 'HTTP 500 three times' },
    ],
    schemas: [{ document: 'cpo', sha256, generation: '2026-10-08', current: true, problems: [] }],
    findings: [{ level: 'action', rule: 'svc:reachable', code: 'document-failed', document: 'vdr', message: 'the VDR could not be fetched: HTTP 500' }],
  };
}

/** The agency's review n of `provider`'s OCR. */
export function reviewOf(provider: string, n: number): AgencyReview {
  return {
    provider,
    ocrPeriodEnd: `2026-0${n}-30`,
    ocrSha256: sha256Of(`ocr ${n}`),
    reviewedAt: `2026-10-0${n}T12:00:00.000Z`,
    reviewer: 'alice@agency.example',
    note: `review ${n}: ünïcödé and "quotes"`,
    signature: { keyid: 'agency-key', alg: 'ecdsa-p256-sha256', sig: `c2lnbmF0dXJl${n}` },
  };
}

/**
 * What every AgencyStore (ports/agency-store.ts) must do: the file store and the PostgreSQL store run it; each adds its
 * own tests of what only it has (files left by a crash, an unreachable server).
 */
export function agencyStoreContract(name: string, make: () => Promise<AgencyStoreHarness>): void {
  describe(`${name} (AGENCY_STORE contract)`, () => {
    let h: AgencyStoreHarness;
    let store: AgencyStore;
    beforeEach(async () => {
      h = await make();
      store = h.store;
    });
    afterEach(async () => {
      await h.cleanup();
    });

    const missing = (sha256: string) => `${h.location}: no document ${sha256} in the agency store; pull the provider again`;
    const badName = (name: string) =>
      `${JSON.stringify(name)} is not a provider name; expected letters, digits, ".", "_" and "-" (at most 64), starting with a letter or digit`;

    it('starts empty', async () => {
      expect(await store.providers()).toEqual([]);
      expect(await store.pulls('acme')).toEqual([]);
      expect(await store.pulls('acme', { last: 3 })).toEqual([]);
      expect(await store.reviews('acme')).toEqual([]);
    });

    describe('documents', () => {
      it('stores bytes under their SHA-256 and reads them back', async () => {
        const bytes = utf8('{"fedrampId":"FR2611250001","name":"Acme Cloud"}');
        const sha256 = await store.putDocument(bytes);
        expect(sha256).toBe(sha256Of(bytes));
        expect(Buffer.from(await store.readDocument(sha256))).toEqual(Buffer.from(bytes));
      });

      it('is idempotent: the same bytes again give the same digest and the same bytes back', async () => {
        const bytes = utf8('{"same":true}');
        const first = await store.putDocument(bytes);
        expect(await store.putDocument(bytes)).toBe(first);
        expect(await Promise.all([store.putDocument(bytes), store.putDocument(bytes), h.twin().putDocument(bytes)])).toEqual([first, first, first]);
        expect(Buffer.from(await store.readDocument(first)).toString('utf8')).toBe('{"same":true}');
      });

      it('keeps an empty document, binary bytes and a larger document', async () => {
        const empty = await store.putDocument(new Uint8Array(0));
        expect(empty).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
        expect((await store.readDocument(empty)).length).toBe(0);
        const binary = new Uint8Array(256).map((_, i) => i);
        expect(Buffer.from(await store.readDocument(await store.putDocument(binary)))).toEqual(Buffer.from(binary));
        const entries = Array.from({ length: 20_000 }, (_, i) => ({ ksi: `KSI-${i % 46}`, evidence: `https://trust.example/evidence/${sha256Of(String(i))}` }));
        const large = utf8(JSON.stringify({ entries }));
        const read = Buffer.from(await store.readDocument(await store.putDocument(large)));
        // Buffer.equals: toEqual compares a large buffer byte by byte as objects, for seconds.
        expect([read.length, read.equals(large)]).toEqual([large.length, true]);
      });

      it('reads a document another store on the same data put', async () => {
        const sha256 = await h.twin().putDocument(utf8('from the twin'));
        expect(Buffer.from(await store.readDocument(sha256)).toString('utf8')).toBe('from the twin');
      });

      it('refuses an unknown digest with NotFoundError', async () => {
        const unknown = sha256Of('never stored');
        const refused = store.readDocument(unknown);
        await expect(refused).rejects.toThrow(NotFoundError);
        await expect(store.readDocument(unknown)).rejects.toMatchObject({ code: 'agency-document-missing', message: missing(unknown) });
      });

      it.each([
        ['too short', 'abc123'],
        ['upper case', 'E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855'],
        ['a path', '../../../../etc/passwd'],
        ['65 digits', `${'a'.repeat(65)}`],
        ['empty', ''],
      ])('refuses a malformed digest (%s) with InvalidInputError', async (_what, sha256) => {
        const refused = store.readDocument(sha256);
        await expect(refused).rejects.toThrow(InvalidInputError);
        await expect(store.readDocument(sha256)).rejects.toMatchObject({
          code: 'agency-bad-sha256',
          message: `${JSON.stringify(sha256)} is not a document's SHA-256; expected 64 lowercase hex digits`,
        });
      });

      it('refuses bytes that no longer hash to their digest, and putting them again repairs them', async () => {
        const bytes = utf8('{"document":"to be damaged"}');
        const sha256 = await store.putDocument(bytes);
        const where = await h.corrupt(sha256);
        const refused = store.readDocument(sha256);
        await expect(refused).rejects.toThrow(IntegrityError);
        await expect(store.readDocument(sha256)).rejects.toMatchObject({
          code: 'agency-document-corrupt',
          message: `${where}: the stored bytes no longer hash to ${sha256}; pull the provider again`,
        });
        expect(await store.putDocument(bytes)).toBe(sha256);
        expect(Buffer.from(await store.readDocument(sha256))).toEqual(Buffer.from(bytes));
      });
    });

    describe('pulls', () => {
      it('gives each provider seq 1, 2, … and returns each pull as recorded, oldest first', async () => {
        const a1 = await store.appendPull(pullOf('acme', 1));
        const b1 = await store.appendPull(pullOf('beta.gov', 1));
        const a2 = await store.appendPull(pullOf('acme', 2));
        const a3 = await store.appendPull(pullOf('acme', 3));
        expect([a1.seq, a2.seq, a3.seq, b1.seq]).toEqual([1, 2, 3, 1]);
        expect(a2).toEqual({ ...pullOf('acme', 2), seq: 2 });
        expect(await store.pulls('acme')).toEqual([a1, a2, a3]);
        expect(await store.pulls('beta.gov')).toEqual([{ ...pullOf('beta.gov', 1), seq: 1 }]);
      });

      it('keeps what the caller passes apart from what it keeps', async () => {
        const pull = pullOf('acme', 1);
        const recorded = await store.appendPull(pull);
        pull.findings.push({ level: 'notice', rule: 'svc:late', code: 'late', message: 'changed after' });
        recorded.documents.length = 0;
        expect(await store.pulls('acme')).toEqual([{ ...pullOf('acme', 1), seq: 1 }]);
      });

      it('gives concurrent appends of one provider distinct consecutive seqs', async () => {
        const recorded = await Promise.all(Array.from({ length: 10 }, (_, i) => store.appendPull(pullOf('acme', i + 1))));
        expect(recorded.map((p) => p.seq).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        const read = await store.pulls('acme');
        expect(read.map((p) => p.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        // Each seq holds the pull that was told it.
        for (const pull of recorded) expect(read[pull.seq - 1]).toEqual(pull);
      });

      it('gives concurrent appends from two stores on the same data distinct consecutive seqs', async () => {
        const twin = h.twin();
        const recorded = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? twin : store).appendPull(pullOf('acme', i + 1))));
        expect(recorded.map((p) => p.seq).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        expect((await twin.pulls('acme')).map((p) => p.started)).toEqual([...recorded].sort((a, b) => a.seq - b.seq).map((p) => p.started));
      });

      it('returns only the newest n with last, oldest first', async () => {
        for (let n = 1; n <= 5; n++) await store.appendPull(pullOf('acme', n));
        expect((await store.pulls('acme', { last: 2 })).map((p) => p.seq)).toEqual([4, 5]);
        expect((await store.pulls('acme', { last: 1 })).map((p) => p.seq)).toEqual([5]);
        expect((await store.pulls('acme', { last: 5 })).map((p) => p.seq)).toEqual([1, 2, 3, 4, 5]);
        expect((await store.pulls('acme', { last: 50 })).map((p) => p.seq)).toEqual([1, 2, 3, 4, 5]);
        expect(await store.pulls('acme', { last: 2 })).toEqual((await store.pulls('acme')).slice(-2));
        expect(await store.pulls('other', { last: 2 })).toEqual([]);
      });

      it.each([0, -1, 1.5, Number.NaN])('refuses last %p with InvalidInputError', async (last) => {
        const refused = store.pulls('acme', { last });
        await expect(refused).rejects.toThrow(InvalidInputError);
        await expect(store.pulls('acme', { last })).rejects.toMatchObject({
          code: 'agency-bad-last',
          message: `last: expected a whole number of pulls, at least 1, got ${String(last)}`,
        });
      });

      it('orders seqs as numbers past 9 and 99', async () => {
        for (let n = 1; n <= 12; n++) await store.appendPull(pullOf('acme', n));
        expect((await store.pulls('acme')).map((p) => p.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
        expect((await store.pulls('acme', { last: 3 })).map((p) => p.seq)).toEqual([10, 11, 12]);
      });
    });

    describe('reviews', () => {
      it('keeps each provider its reviews, oldest first', async () => {
        await store.appendReview(reviewOf('acme', 1));
        await store.appendReview(reviewOf('beta', 1));
        await store.appendReview(reviewOf('acme', 2));
        expect(await store.reviews('acme')).toEqual([reviewOf('acme', 1), reviewOf('acme', 2)]);
        expect(await store.reviews('beta')).toEqual([reviewOf('beta', 1)]);
        expect(await store.reviews('gamma')).toEqual([]);
        // Reviews are not pulls.
        expect(await store.pulls('acme')).toEqual([]);
      });

      it('keeps every one of concurrent reviews', async () => {
        await Promise.all([1, 2, 3, 4, 5].map((n) => store.appendReview(reviewOf('acme', n))));
        expect((await store.reviews('acme')).map((r) => r.ocrPeriodEnd).sort()).toEqual([1, 2, 3, 4, 5].map((n) => `2026-0${n}-30`));
      });
    });

    it('lists every provider with a pull or a review, sorted', async () => {
      await store.appendPull(pullOf('zeta', 1));
      await store.appendPull(pullOf('Acme', 1));
      await store.appendPull(pullOf('zeta', 2));
      await store.appendReview(reviewOf('mid-1', 1));
      expect(await store.providers()).toEqual(['Acme', 'mid-1', 'zeta']);
      expect(await h.twin().providers()).toEqual(['Acme', 'mid-1', 'zeta']);
    });

    describe('provider names', () => {
      const bad = ['../x', '..', '.hidden', 'a/b', 'a\\b', '', ' acme', 'x'.repeat(65), 'acme\u0000'];
      it.each(bad)('refuses %p everywhere a provider is named, storing nothing', async (name) => {
        const expected = { code: 'agency-bad-provider', message: badName(name) };
        await expect(store.appendPull(pullOf(name, 1))).rejects.toThrow(InvalidInputError);
        await expect(store.appendPull(pullOf(name, 1))).rejects.toMatchObject(expected);
        await expect(store.pulls(name)).rejects.toMatchObject(expected);
        await expect(store.pulls(name, { last: 1 })).rejects.toMatchObject(expected);
        await expect(store.appendReview(reviewOf(name, 1))).rejects.toMatchObject(expected);
        await expect(store.reviews(name)).rejects.toMatchObject(expected);
        expect(await store.providers()).toEqual([]);
      });

      it('takes the longest name and every character a name may hold', async () => {
        const names = ['a'.repeat(64), 'A0._-z', '9'];
        for (const name of names) await store.appendPull(pullOf(name, 1));
        expect(await store.providers()).toEqual([...names].sort());
        for (const name of names) expect((await store.pulls(name)).map((p) => p.provider)).toEqual([name]);
      });
    });
  });
}
