import { ChevrotainQueryParser } from '../../src/infrastructure/cql/chevrotain-query-parser';

const parser = new ChevrotainQueryParser();
const pos = (column: number, line = 1, offset = column - 1) => ({ offset, line, column });
const failure = (text: string) => {
  try {
    parser.parse(text);
  } catch (e) {
    return `${(e as { code: string }).code}: ${(e as Error).message}`;
  }
  return 'parsed';
};

describe('ChevrotainQueryParser', () => {
  it('parses WHERE, ORDER BY and LIMIT of the first DESIGN example', () => {
    expect(parser.parse('FROM results WHERE status != PASS AND area = IAM ORDER BY severity DESC LIMIT 10')).toEqual({
      text: 'FROM results WHERE status != PASS AND area = IAM ORDER BY severity DESC LIMIT 10',
      source: 'results',
      where: {
        kind: 'and',
        left: { kind: 'compare', field: { name: 'status', at: pos(20) }, op: '!=', value: { kind: 'string', value: 'PASS', at: pos(30) } },
        right: { kind: 'compare', field: { name: 'area', at: pos(39) }, op: '=', value: { kind: 'string', value: 'IAM', at: pos(46) } },
      },
      orderBy: [{ field: { name: 'severity', at: pos(59) }, direction: 'desc' }],
      limit: 10,
    });
  });

  it('parses IN lists and SELECT after WHERE, SELECT before WHERE, and GROUP BY … COUNT, keywords in any case', () => {
    const design = parser.parse('FROM actions WHERE sev IN (Critical, High) SELECT ksi_id, owner, sla');
    expect(design.where).toEqual({
      kind: 'in',
      field: { name: 'sev', at: pos(20) },
      values: [
        { kind: 'string', value: 'Critical', at: pos(28) },
        { kind: 'string', value: 'High', at: pos(38) },
      ],
    });
    expect(design.select?.map((f) => f.name)).toEqual(['ksi_id', 'owner', 'sla']);
    const before = parser.parse('from poam select poam_id where status = Open');
    expect([before.source, before.select?.map((f) => f.name), before.where?.kind]).toEqual(['poam', ['poam_id'], 'compare']);
    expect(parser.parse('FROM results GROUP BY area COUNT')).toEqual({
      text: 'FROM results GROUP BY area COUNT',
      source: 'results',
      groupBy: { name: 'area', at: pos(23) },
    });
    expect(parser.parse('FROM runs ORDER BY fail DESC, seq').orderBy?.map((k) => `${k.field.name} ${k.direction}`)).toEqual(['fail desc', 'seq asc']);
  });

  it('parses every operator and literal: quoted strings, numbers, durations, dates, NOT IN, NOT LIKE', () => {
    const where = (text: string) => parser.parse(`FROM results WHERE ${text}`).where;
    expect(['=', '!=', '<>', '<', '<=', '>', '>='].map((op) => (where(`sla ${op} 7`) as { op: string }).op)).toEqual(['=', '!=', '!=', '<', '<=', '>', '>=']);
    expect(where("title LIKE 'it''s%'")).toEqual({
      kind: 'like',
      field: { name: 'title', at: pos(20) },
      pattern: { kind: 'string', value: "it's%", at: pos(31) },
    });
    expect(where('status NOT IN ("FAIL", 2.5, 2w, 12h, 2026-11-01T08:00:00Z)')).toEqual({
      kind: 'not',
      expr: {
        kind: 'in',
        field: { name: 'status', at: pos(20) },
        values: [
          { kind: 'string', value: 'FAIL', at: pos(35) },
          { kind: 'number', value: 2.5, at: pos(43) },
          { kind: 'duration', days: 14, text: '2w', at: pos(48) },
          { kind: 'duration', days: 0.5, text: '12h', at: pos(52) },
          { kind: 'date', value: '2026-11-01T08:00:00Z', at: pos(57) },
        ],
      },
    });
    expect(where('ksi_id NOT LIKE KSI-IA%')).toMatchObject({ kind: 'not', expr: { kind: 'like', pattern: { value: 'KSI-IA%' } } });
  });

  it('binds NOT tighter than AND, AND tighter than OR; parentheses group', () => {
    const shape = (e: unknown): string => {
      const x = e as { kind: string; left?: unknown; right?: unknown; expr?: unknown; field?: { name: string } };
      if (x.kind === 'and' || x.kind === 'or') return `(${shape(x.left)} ${x.kind} ${shape(x.right)})`;
      if (x.kind === 'not') return `not ${shape(x.expr)}`;
      return x.field?.name ?? '?';
    };
    expect(shape(parser.parse('FROM results WHERE a = 1 OR b = 1 AND NOT c = 1').where)).toBe('(a or (b and not c))');
    expect(shape(parser.parse('FROM results WHERE (a = 1 OR b = 1) AND NOT (c = 1 OR d = 1)').where)).toBe('((a or b) and not (c or d))');
  });

  it.each([
    ['missing FROM', 'SELECT ksi_id FROM results', "cql-syntax: line 1, column 1: expected FROM, found 'SELECT'\n  SELECT ksi_id FROM results\n  ^"],
    [
      'unknown source',
      'FROM findings',
      "cql-invalid: line 1, column 6: expected a source (results, evidence, actions, poam, runs), found 'findings'\n  FROM findings\n       ^",
    ],
    [
      'unclosed parenthesis',
      'FROM results WHERE (status = FAIL',
      "cql-syntax: line 1, column 34: expected ')', found end of query\n  FROM results WHERE (status = FAIL\n                                   ^",
    ],
    [
      'missing value after operator',
      'FROM results WHERE status = ORDER BY ksi_id',
      "cql-syntax: line 1, column 29: expected a value, found 'ORDER'\n  FROM results WHERE status = ORDER BY ksi_id\n                              ^",
    ],
    [
      'missing operator',
      'FROM results WHERE status',
      'cql-syntax: line 1, column 26: expected a comparison operator (=, !=, <, <=, >, >=, IN, LIKE) or NOT, found end of query\n  FROM results WHERE status\n                           ^',
    ],
    [
      'bad token',
      'FROM results WHERE status = FAIL; DROP',
      "cql-syntax: line 1, column 33: expected a field name, value, operator or keyword, found ';'\n  FROM results WHERE status = FAIL; DROP\n                                  ^",
    ],
    [
      'unterminated string',
      "FROM results WHERE title = 'MFA",
      "cql-syntax: line 1, column 28: expected a closing ' to end the string, found end of line\n  FROM results WHERE title = 'MFA\n                             ^",
    ],
    [
      'trailing garbage',
      'FROM results LIMIT 10 rows',
      "cql-syntax: line 1, column 23: expected a clause (WHERE, SELECT, ORDER BY, GROUP BY, LIMIT) or end of query, found 'rows'\n  FROM results LIMIT 10 rows\n                        ^",
    ],
    [
      'ORDER without BY',
      'FROM results ORDER severity',
      "cql-syntax: line 1, column 20: expected BY, found 'severity'\n  FROM results ORDER severity\n                     ^",
    ],
    [
      'GROUP BY without COUNT',
      'FROM results GROUP BY area',
      'cql-syntax: line 1, column 27: expected COUNT, found end of query\n  FROM results GROUP BY area\n                            ^',
    ],
    [
      'a clause twice',
      'FROM results LIMIT 1 LIMIT 2',
      "cql-syntax: line 1, column 22: expected each clause once, found a second 'LIMIT'\n  FROM results LIMIT 1 LIMIT 2\n                       ^",
    ],
    [
      'a fractional LIMIT',
      'FROM results LIMIT 2.5',
      "cql-invalid: line 1, column 20: expected a whole number of rows, found '2.5'\n  FROM results LIMIT 2.5\n                     ^",
    ],
    [
      'multi-line query, error on line 2',
      'FROM results\nWHERE status = FAIL AND ORDER BY ksi_id\nLIMIT 5',
      "cql-syntax: line 2, column 25: expected NOT, '(' or a field name, found 'ORDER'\n  WHERE status = FAIL AND ORDER BY ksi_id\n                          ^",
    ],
    [
      'multi-line query ending early',
      'FROM results\nWHERE status IN (FAIL, WARN',
      "cql-syntax: line 2, column 28: expected ')', found end of query\n  WHERE status IN (FAIL, WARN\n                             ^",
    ],
    // A lone CR starts a line for the lexer, and so for the line quoted (found by test/property/cql.property.test.ts).
    [
      'a lone CR as line break',
      'FROM results\rWHERE status = FAIL AND ORDER BY ksi_id\r\nLIMIT 5',
      "cql-syntax: line 2, column 25: expected NOT, '(' or a field name, found 'ORDER'\n  WHERE status = FAIL AND ORDER BY ksi_id\n                          ^",
    ],
    [
      'a lone CR before the end',
      'FROM results\rWHERE status IN (FAIL, WARN\r',
      "cql-syntax: line 2, column 28: expected ')', found end of query\n  WHERE status IN (FAIL, WARN\n                             ^",
    ],
  ])('reports %s with a caret under the column', (_name, text, message) => {
    expect(failure(text)).toBe(message);
  });
});
