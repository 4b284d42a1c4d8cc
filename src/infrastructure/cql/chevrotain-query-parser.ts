import { createToken, EmbeddedActionsParser, EOF, Lexer, type IParserErrorMessageProvider, type IToken, type TokenType } from 'chevrotain';
import {
  cqlError,
  endOf,
  isCqlSource,
  CQL_SOURCES,
  type CompareOp,
  type CqlQuery,
  type Expr,
  type FieldRef,
  type Literal,
  type OrderKey,
  type SourcePosition,
} from '../../domain/cql/cql-query';
import type { QueryParser } from '../../ports/query-parser';

const Identifier = createToken({ name: 'Identifier', pattern: /[A-Za-z_%][\w.@%-]*/ });
const keyword = (name: string) => createToken({ name, pattern: new RegExp(name, 'i'), longer_alt: Identifier });
const From = keyword('FROM');
const Where = keyword('WHERE');
const Select = keyword('SELECT');
const Order = keyword('ORDER');
const Group = keyword('GROUP');
const By = keyword('BY');
const Asc = keyword('ASC');
const Desc = keyword('DESC');
const Limit = keyword('LIMIT');
const Count = keyword('COUNT');
const And = keyword('AND');
const Or = keyword('OR');
const Not = keyword('NOT');
const In = keyword('IN');
const Like = keyword('LIKE');
const DateLit = createToken({ name: 'Date', pattern: /\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?/ });
const DurationLit = createToken({ name: 'Duration', pattern: /\d+[hdw](?![\w.])/ });
const NumberLit = createToken({ name: 'Number', pattern: /\d+(?:\.\d+)?(?![\w.])/ });
const StringLit = createToken({ name: 'String', pattern: /'(?:[^'\n]|'')*'|"(?:[^"\n]|"")*"/ });
const Ne = createToken({ name: 'Ne', pattern: /!=|<>/ });
const Le = createToken({ name: 'Le', pattern: /<=/ });
const Ge = createToken({ name: 'Ge', pattern: />=/ });
const Lt = createToken({ name: 'Lt', pattern: /</ });
const Gt = createToken({ name: 'Gt', pattern: />/ });
const Eq = createToken({ name: 'Eq', pattern: /=/ });
const LParen = createToken({ name: 'LParen', pattern: /\(/ });
const RParen = createToken({ name: 'RParen', pattern: /\)/ });
const Comma = createToken({ name: 'Comma', pattern: /,/ });
const Blank = createToken({ name: 'Blank', pattern: /\s+/, group: Lexer.SKIPPED });

const KEYWORDS = [From, Where, Select, Order, Group, By, Asc, Desc, Limit, Count, And, Or, Not, In, Like];
const TOKENS = [Blank, ...KEYWORDS, DateLit, DurationLit, NumberLit, StringLit, Identifier, Ne, Le, Ge, Lt, Gt, Eq, LParen, RParen, Comma];
const VALUE_TOKENS = new Set<TokenType>([StringLit, NumberLit, DurationLit, DateLit]);
const OPERATORS = new Set<TokenType>([Eq, Ne, Lt, Le, Gt, Ge, In, Like]);
const PUNCTUATION = new Map<TokenType, string>([
  [LParen, "'('"],
  [RParen, "')'"],
  [Comma, "','"],
  [EOF, 'end of query'],
]);
const CLAUSES = 'a clause (WHERE, SELECT, ORDER BY, GROUP BY, LIMIT) or end of query';

/** The expected tokens in plain words: `a value`, `a field name`, `a comparison operator (…)`, `')'`, `BY`. */
function expectation(expected: readonly TokenType[], ruleName: string): string {
  const words: string[] = [];
  const add = (word: string) => words.includes(word) || words.push(word);
  for (const type of expected) {
    if (VALUE_TOKENS.has(type) || (type === Identifier && ruleName === 'value')) add('a value');
    else if (type === Identifier) add(ruleName === 'source' ? `a source (${CQL_SOURCES.join(', ')})` : 'a field name');
    else if (OPERATORS.has(type)) add('a comparison operator (=, !=, <, <=, >, >=, IN, LIKE)');
    else if (type === Count && ruleName === 'orderKey') add('a field name');
    else add(PUNCTUATION.get(type) ?? type.name);
  }
  return words.length <= 1 ? (words[0] ?? 'something else') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

function found(token: IToken): string {
  return token.tokenType === EOF ? 'end of query' : `'${token.image}'`;
}

const MESSAGES: IParserErrorMessageProvider = {
  buildMismatchTokenMessage: ({ expected, actual, ruleName }) => `expected ${expectation([expected], ruleName)}, found ${found(actual)}`,
  buildNotAllInputParsedMessage: ({ firstRedundant }) => `expected ${CLAUSES}, found ${found(firstRedundant)}`,
  buildNoViableAltMessage: ({ expectedPathsPerAlt, actual, ruleName }) =>
    `expected ${expectation(
      expectedPathsPerAlt.flat().map((path) => path[0]),
      ruleName,
    )}, found ${found(actual[0])}`,
  buildEarlyExitMessage: ({ expectedIterationPaths, actual, ruleName }) =>
    `expected ${expectation(
      expectedIterationPaths.map((path) => path[0]),
      ruleName,
    )}, found ${found(actual[0])}`,
};

type Clause =
  | { kind: 'where'; token: IToken; expr: Expr }
  | { kind: 'select'; token: IToken; fields: FieldRef[] }
  | { kind: 'order'; token: IToken; keys: OrderKey[] }
  | { kind: 'group'; token: IToken; field: FieldRef }
  | { kind: 'limit'; token: IToken; count: IToken };

const at = (token: IToken): SourcePosition => ({ offset: token.startOffset, line: token.startLine ?? 1, column: token.startColumn ?? 1 });

/** The grammar of docs/cql.md; each rule returns its piece of the syntax tree. */
class CqlGrammar extends EmbeddedActionsParser {
  constructor() {
    super(TOKENS, { errorMessageProvider: MESSAGES, maxLookahead: 3 });
    this.performSelfAnalysis();
  }

  readonly query = this.RULE('query', () => {
    this.CONSUME(From);
    const source = this.SUBRULE(this.source);
    const clauses: Clause[] = [];
    this.MANY(() => {
      clauses.push(this.SUBRULE(this.clause));
    });
    return { source, clauses };
  });

  private readonly source = this.RULE('source', () => this.CONSUME(Identifier));

  private readonly clause = this.RULE('clause', (): Clause =>
    this.OR<Clause>([
      { ALT: () => ({ kind: 'where', token: this.CONSUME(Where), expr: this.SUBRULE(this.orExpr) }) },
      {
        ALT: () => {
          const token = this.CONSUME(Select);
          const fields = [this.SUBRULE(this.field)];
          this.MANY(() => {
            this.CONSUME(Comma);
            fields.push(this.SUBRULE2(this.field));
          });
          return { kind: 'select', token, fields };
        },
      },
      {
        ALT: () => {
          const token = this.CONSUME(Order);
          this.CONSUME(By);
          const keys = [this.SUBRULE(this.orderKey)];
          this.MANY2(() => {
            this.CONSUME2(Comma);
            keys.push(this.SUBRULE2(this.orderKey));
          });
          return { kind: 'order', token, keys };
        },
      },
      {
        ALT: () => {
          const token = this.CONSUME(Group);
          this.CONSUME2(By);
          const field = this.SUBRULE3(this.field);
          this.CONSUME(Count);
          return { kind: 'group', token, field };
        },
      },
      { ALT: () => ({ kind: 'limit', token: this.CONSUME(Limit), count: this.CONSUME(NumberLit) }) },
    ]),
  );

  private readonly orderKey = this.RULE('orderKey', (): OrderKey => {
    const name = this.OR([{ ALT: () => this.CONSUME(Identifier) }, { ALT: () => this.CONSUME(Count) }]);
    let direction: OrderKey['direction'] = 'asc';
    this.OPTION(() => {
      direction = this.OR2([{ ALT: () => (this.CONSUME(Asc), 'asc' as const) }, { ALT: () => (this.CONSUME(Desc), 'desc' as const) }]);
    });
    return { field: { name: name.image, at: at(name) }, direction };
  });

  private readonly orExpr: () => Expr = this.RULE('orExpr', () => {
    let left = this.SUBRULE(this.andExpr);
    this.MANY(() => {
      this.CONSUME(Or);
      left = { kind: 'or', left, right: this.SUBRULE2(this.andExpr) };
    });
    return left;
  });

  private readonly andExpr = this.RULE('andExpr', (): Expr => {
    let left = this.SUBRULE(this.notExpr);
    this.MANY(() => {
      this.CONSUME(And);
      left = { kind: 'and', left, right: this.SUBRULE2(this.notExpr) };
    });
    return left;
  });

  private readonly notExpr: () => Expr = this.RULE('notExpr', () =>
    this.OR<Expr>([
      { ALT: () => (this.CONSUME(Not), { kind: 'not', expr: this.SUBRULE(this.notExpr) }) },
      {
        ALT: () => {
          this.CONSUME(LParen);
          const inner = this.SUBRULE(this.orExpr);
          this.CONSUME(RParen);
          return inner;
        },
      },
      { ALT: () => this.SUBRULE(this.predicate) },
    ]),
  );

  private readonly predicate = this.RULE('predicate', (): Expr => {
    const field = this.SUBRULE(this.field);
    return this.OR<Expr>([
      { ALT: () => ({ kind: 'compare', field, op: this.SUBRULE(this.operator), value: this.SUBRULE(this.value) }) },
      {
        ALT: () => {
          let negated = false;
          this.OPTION(() => {
            this.CONSUME(Not);
            negated = true;
          });
          const test = this.OR2<Expr>([
            {
              ALT: () => {
                this.CONSUME(In);
                this.CONSUME(LParen);
                const values = [this.SUBRULE2(this.value)];
                this.MANY(() => {
                  this.CONSUME(Comma);
                  values.push(this.SUBRULE3(this.value));
                });
                this.CONSUME(RParen);
                return { kind: 'in', field, values };
              },
            },
            { ALT: () => (this.CONSUME(Like), { kind: 'like', field, pattern: this.SUBRULE4(this.value) }) },
          ]);
          return negated ? { kind: 'not', expr: test } : test;
        },
      },
    ]);
  });

  private readonly operator = this.RULE('operator', (): CompareOp => {
    const token = this.OR([Eq, Ne, Le, Ge, Lt, Gt].map((type) => ({ ALT: () => this.CONSUME(type) })));
    return token.image === '<>' ? '!=' : (token.image as CompareOp);
  });

  private readonly field = this.RULE('field', (): FieldRef => {
    const token = this.CONSUME(Identifier);
    return { name: token.image, at: at(token) };
  });

  private readonly value = this.RULE('value', (): Literal => {
    const token = this.OR([StringLit, NumberLit, DurationLit, DateLit, Identifier].map((type) => ({ ALT: () => this.CONSUME(type) })));
    const where = at(token);
    const image = token.image ?? '';
    if (token.tokenType === NumberLit) return { kind: 'number', value: Number(image), at: where };
    if (token.tokenType === DateLit) return { kind: 'date', value: image, at: where };
    if (token.tokenType === DurationLit) return { kind: 'duration', days: Number(image.slice(0, -1)) * DURATION_DAYS[image.slice(-1)], text: image, at: where };
    if (token.tokenType === StringLit) return { kind: 'string', value: image.slice(1, -1).replaceAll(image[0] + image[0], image[0]), at: where };
    return { kind: 'string', value: image, at: where };
  });
}

const DURATION_DAYS: Record<string, number> = { h: 1 / 24, d: 1, w: 7 };

/** QUERY_PARSER with a Chevrotain lexer and parser, built once on first use. */
export class ChevrotainQueryParser implements QueryParser {
  private static built?: { lexer: Lexer; grammar: CqlGrammar };

  parse(text: string): CqlQuery {
    ChevrotainQueryParser.built ??= { lexer: new Lexer(TOKENS, { positionTracking: 'full', ensureOptimizations: false }), grammar: new CqlGrammar() };
    const { lexer, grammar } = ChevrotainQueryParser.built;
    const lexed = lexer.tokenize(text);
    const bad = lexed.errors[0];
    if (bad) {
      const char = text.slice(bad.offset, bad.offset + 1);
      const problem =
        char === "'" || char === '"'
          ? `expected a closing ${char} to end the string, found end of line`
          : `expected a field name, value, operator or keyword, found '${text.slice(bad.offset, bad.offset + bad.length)}'`;
      throw cqlError('cql-syntax', text, { line: bad.line ?? 1, column: bad.column ?? 1 }, problem);
    }
    grammar.input = lexed.tokens;
    const parsed = grammar.query();
    const error = grammar.errors[0];
    if (error) throw cqlError('cql-syntax', text, error.token.tokenType === EOF ? endOf(text) : at(error.token), error.message);
    return assemble(text, parsed.source, parsed.clauses);
  }
}

/** The query of a parsed source and clauses: each clause at most once, a known source, a whole LIMIT. */
function assemble(text: string, source: IToken, clauses: readonly Clause[]): CqlQuery {
  const name = source.image.toLowerCase();
  if (!isCqlSource(name)) throw cqlError('cql-invalid', text, at(source), `expected a source (${CQL_SOURCES.join(', ')}), found '${source.image}'`);
  const query: CqlQuery = { text, source: name };
  const seen = new Set<string>();
  for (const clause of clauses) {
    if (seen.has(clause.kind)) throw cqlError('cql-syntax', text, at(clause.token), `expected each clause once, found a second '${clause.token.image}'`);
    seen.add(clause.kind);
    if (clause.kind === 'where') query.where = clause.expr;
    else if (clause.kind === 'select') query.select = clause.fields;
    else if (clause.kind === 'order') query.orderBy = clause.keys;
    else if (clause.kind === 'group') query.groupBy = clause.field;
    else {
      const limit = Number(clause.count.image);
      if (!Number.isInteger(limit)) throw cqlError('cql-invalid', text, at(clause.count), `expected a whole number of rows, found '${clause.count.image}'`);
      query.limit = limit;
    }
  }
  return query;
}
