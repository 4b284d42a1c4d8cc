import { type OrgPathHolder, orgPathProblem, planOrgPaths, readOrgPathRules } from '../../../src/domain/directory/org-path';

function holder(id: string, overrides: Partial<OrgPathHolder> = {}): OrgPathHolder {
  return { user_id: id, user_principal_name: `${id}@contoso.example`, user_type: 'Member', department: null, office_location: null, path: null, ...overrides };
}

const fail = (path: string, problem: string): never => {
  throw new Error(`${path}: ${problem}`);
};

describe('orgPathProblem', () => {
  it('accepts paths of letters, digits, spaces, dots, underscores and hyphens', () => {
    expect(['/Contoso', '/Contoso/Finance/Payroll', '/Contoso Ltd/R&D'.replace('&', 'and'), '/a.b_c-d/1 2'].map(orgPathProblem)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it.each([
    ['Contoso/Finance', '"Contoso/Finance" does not start with "/"'],
    ['/Contoso//Finance', '"/Contoso//Finance" has an empty segment'],
    ['/Contoso/', '"/Contoso/" has an empty segment'],
    ['/', '"/" has an empty segment'],
    ['/Contoso/R&D', 'segment "R&D" may only hold letters, digits, spaces, ".", "_" and "-"'],
    [`/${'a'.repeat(256)}`, 'is 257 characters long, the limit is 256'],
    [42, 'expected a string such as "/Contoso/Finance/Payroll"'],
  ])('refuses path %#', (path, problem) => {
    expect(orgPathProblem(path)).toBe(problem);
  });
});

describe('planOrgPaths', () => {
  it('applies the first matching rule, ignoring case, and says what changes', () => {
    const rules = readOrgPathRules(
      [
        { match: { user_type: 'Guest' }, path: '/Contoso/External' },
        { match: { department: ['Finance', 'Accounting'], office: 'Seattle' }, path: '/Contoso/Finance/Seattle' },
        { match: { department: 'finance' }, path: '/Contoso/Finance' },
      ],
      'rules',
      fail,
    );
    const plan = planOrgPaths(
      [
        holder('a', { department: ' FINANCE ', office_location: 'seattle' }),
        holder('b', { department: 'Finance', office_location: 'Redmond', path: '/Contoso/Finance' }),
        holder('c', { department: 'Finance', user_type: 'Guest' }),
        holder('d', { department: 'HR', path: '/Old' }),
      ],
      rules,
    );
    expect(plan).toEqual([
      { user_id: 'a', user_principal_name: 'a@contoso.example', current: null, proposed: '/Contoso/Finance/Seattle', rule: 1, change: 'set' },
      { user_id: 'b', user_principal_name: 'b@contoso.example', current: '/Contoso/Finance', proposed: '/Contoso/Finance', rule: 2, change: 'unchanged' },
      { user_id: 'c', user_principal_name: 'c@contoso.example', current: null, proposed: '/Contoso/External', rule: 0, change: 'set' },
      { user_id: 'd', user_principal_name: 'd@contoso.example', current: '/Old', proposed: null, rule: null, change: 'no-rule' },
    ]);
  });

  it('treats an empty match as a catch-all', () => {
    expect(planOrgPaths([holder('x')], [{ match: {}, path: '/Contoso' }])[0].proposed).toBe('/Contoso');
  });
});

describe('readOrgPathRules', () => {
  it.each([
    [{}, 'rules: expected an array of rules {"match": {...}, "path": "/Org/Unit"}, got an object'],
    [[{ match: {}, path: 'Finance' }], 'rules[0].path: "Finance" does not start with "/"'],
    [[{ match: { dept: 'x' }, path: '/A' }], 'rules[0].match.dept: unknown key (known: department, office, user_type)'],
    [[{ match: { department: [] }, path: '/A' }], 'rules[0].match.department: expected a non-empty string or an array of them, got an array'],
    [[{ match: { user_type: 'member' }, path: '/A' }], 'rules[0].match.user_type: expected "Member" or "Guest", got "member"'],
    [[{ match: {}, path: '/A', apply: true }], 'rules[0].apply: unknown key (known: match, path)'],
    [['/A'], 'rules[0]: expected an object {"match": {...}, "path": "/Org/Unit"}, got "/A"'],
  ])('refuses %j', (value, message) => {
    expect(() => readOrgPathRules(value, 'rules', fail)).toThrow(message);
  });
});
