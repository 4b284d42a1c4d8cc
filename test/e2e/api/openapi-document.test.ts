import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { buildApi } from '../../../src/interfaces/http/server';
import { capturingLogger, proxyConfig } from '../../support/api';
import { DESIGN_ROUTES, openApiRoutes } from '../../support/design-surface';

describe('the OpenAPI 3.1 document', () => {
  const { openapi } = buildApi(proxyConfig(), { logger: capturingLogger().logger });
  const operations = Object.entries(openapi.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op: op as Record<string, any> })),
  );

  it('has exactly the routes of DESIGN §9 (30), each tagged with its module', () => {
    expect(openApiRoutes(openapi).sort()).toEqual([...DESIGN_ROUTES].sort());
    expect(DESIGN_ROUTES).toHaveLength(30);
    expect(openapi.openapi).toBe('3.1.0');
  });

  it('gives every operation a unique id, a summary, its parameters and problem responses', () => {
    expect(new Set(operations.map((o) => o.op.operationId)).size).toBe(30);
    for (const { path, op } of operations) {
      expect(op.summary).toEqual(expect.any(String));
      const declared = (op.parameters as { name: string; in: string }[]).filter((p) => p.in === 'path').map((p) => p.name);
      expect(declared).toEqual([...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]));
      expect(op.responses['400']).toEqual({ $ref: '#/components/responses/Problem400' });
      expect(op.responses['500']).toEqual({ $ref: '#/components/responses/Problem500' });
      if (op.security === undefined) expect(op.responses['401']).toBeDefined();
    }
  });

  it('holds only schemas that compile as JSON Schema 2020-12', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema({ $id: 'openapi.json', components: openapi.components }, 'openapi.json');
    const schemas: unknown[] = [];
    const collect = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(collect);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === 'schema') schemas.push(value);
          else collect(value);
        }
      }
    };
    collect(openapi.paths);
    expect(schemas.length).toBeGreaterThan(40);
    for (const schema of schemas)
      expect(() => ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi.json#/components/')))).not.toThrow();
  });
});
