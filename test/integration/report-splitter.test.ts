import { splitReport } from '../../src/infrastructure/reports/report-splitter';

const layout = (text: string, parts = 2) => splitReport(Buffer.from(text), 0, parts);
const pieces = (text: string, parts = 2) => {
  const l = layout(text, parts);
  if (!l) return undefined;
  const edges = [l.start - 1, ...l.cuts, l.end];
  return edges.slice(1).map((to, i) => text.slice(edges[i] + 1, to));
};

describe('splitReport', () => {
  const r = (i: number) => `{"ksi_id":"KSI-AB-${String(i).padStart(2, '0')}","status":"PASS"}`;
  const list = Array.from({ length: 10 }, (_, i) => r(i)).join(',');

  it('cuts a bare array between two results near the middle', () => {
    expect(pieces(`[${list}]\n`)).toEqual([Array.from({ length: 5 }, (_, i) => r(i)).join(','), Array.from({ length: 5 }, (_, i) => r(i + 5)).join(',')]);
    expect(layout(`[${list}]`)?.header).toBeUndefined();
  });

  it('finds the results of a report object and keeps the rest as the header', () => {
    const text = `{"schema_version":"1","source":{"tool":"t","note":"a ] and a \\" inside"},"results":[${list}]}`;
    const l = layout(text);
    expect(l?.header).toBe('{"schema_version":"1","source":{"tool":"t","note":"a ] and a \\" inside"},"results":[]}');
    expect(JSON.parse(`[${pieces(text)?.join(',')}]`)).toEqual(JSON.parse(`[${list}]`));
  });

  it('finds the end of results that are not the last member', () => {
    const text = `{"results":[${list}],"generated_at":"2026-01-01"}`;
    expect(layout(text)?.header).toBe('{"results":[],"generated_at":"2026-01-01"}');
    expect(pieces(text)?.join(',')).toBe(list);
  });

  it('cuts into more parts, in order', () => {
    expect(pieces(`[${list}]`, 3)?.map((p) => JSON.parse(`[${p}]`).length)).toEqual([4, 3, 3]);
  });

  it('gives a cut that makes the first part unparsable when the comma sits inside a string (the caller then reads whole)', () => {
    const tricky = `[${r(0)},{"ksi_id":"KSI-AB-01","status":"PASS","details":"x},{y"},${r(2)}]`;
    const [first] = pieces(tricky) ?? [];
    expect(() => JSON.parse(`[${first}]`)).toThrow();
  });

  it('makes no cut in a one-result report and gives up on what is not a report', () => {
    expect(layout(`[${r(0)}]`)?.cuts).toEqual([]);
    expect(layout('"text"')).toBeUndefined();
    expect(layout('{"results":{}}')).toBeUndefined();
    expect(layout('{"a":1')).toBeUndefined();
  });
});
