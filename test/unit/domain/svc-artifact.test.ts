import { isSvcManifest, svcSchema, textShape, unparsedWhy } from '../../../src/domain/artifacts/svc-artifact';

describe("textShape and unparsedWhy: why a file is not svc's", () => {
  it.each<[string, string, string]>([
    ['an empty file', '', 'empty file'],
    ['whitespace', ' \r\n\t', 'only whitespace, not JSON'],
    ['bytes that are not UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x22]).toString('utf8'), 'binary data, not JSON'],
    ['a control character', 'ab\u0000cd', 'binary data, not JSON'],
    ['text', 'hello', "not JSON (Unexpected token 'h')"],
  ])('%s', (_what, text, why) => {
    const shape = textShape(text);
    expect(shape.kind).not.toBe('json');
    expect(shape.kind === 'json' ? undefined : unparsedWhy(shape)).toBe(why);
  });

  it('parses JSON, whatever it holds', () => {
    expect(textShape(' [1] ')).toEqual({ kind: 'json', document: [1] });
    expect(textShape('"\uFFFD"')).toEqual({ kind: 'json', document: '\uFFFD' });
  });
});

describe("svcSchema and isSvcManifest: svc's marks", () => {
  it('reads svc.<name>/v<n> schemas only', () => {
    expect(svcSchema({ schema: 'svc.evidence-bundle/v1' })).toBe('svc.evidence-bundle/v1');
    expect(svcSchema({ schema: 'svc.substrate-snapshot/v1' })).toBe('svc.substrate-snapshot/v1');
    expect([
      svcSchema({ schema: 'svcx/v1' }),
      svcSchema({ schema: 'https://json-schema.org/draft-07' }),
      svcSchema(['svc.poam/v1']),
      svcSchema(undefined),
    ]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("knows svc's manifest by its schema, or by svc named as its tool", () => {
    expect([isSvcManifest({ schema: 'svc.manifest/v1' }), isSvcManifest({ schema: 'svc.manifest/v9', tool: { name: 'svc', version: '0.5.0' } })]).toEqual([
      true,
      true,
    ]);
    expect([isSvcManifest({ name: 'My PWA', start_url: '/' }), isSvcManifest({ tool: 'svc' }), isSvcManifest(null)]).toEqual([false, false, false]);
  });
});
