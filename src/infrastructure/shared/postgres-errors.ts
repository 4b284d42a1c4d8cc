import { AppError, PermissionError, UnavailableError } from '../../domain/errors';

/** Network errors, and SQLSTATEs of connection, authentication, missing database and server shutdown or overload. */
const UNREACHABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
const UNREACHABLE_SQLSTATE = /^(08|28|3D000|57P0[123]|53300)/;
/** pg's own connection failures carry no code. */
const UNREACHABLE_MESSAGE = /timeout exceeded when trying to connect|Connection terminated|connection error/i;

/** Which of svc's PostgreSQL stores a message is about: its words, the errors' code prefix, its tables' prefix. */
export interface PostgresStoreNames {
  /** `run store`, `agency store`. */
  store: string;
  /** `run-store`, `agency-store`: codes are `<prefix>-unreachable`, `<prefix>-permission-denied`. */
  code: string;
  /** `svc_`, `agency_`. */
  tables: string;
}

/** A PostgreSQL store's location (the URL, passwords hidden) and the secrets its messages must never show. */
export interface PostgresLocation {
  location: string;
  secrets: string[];
}

/** The location and secrets of a store's connection URL. */
export function postgresLocation(url: string): PostgresLocation {
  return { location: redactUrl(url), secrets: secretsOf(url) };
}

/**
 * pg's errors as AppErrors: unreachable (network, authentication, no database, shutdown) as UnavailableError, missing
 * rights as PermissionError, the password never in the message; AppErrors and unknown SQL errors (bugs) pass unchanged.
 */
export function postgresError(error: unknown, at: PostgresLocation, names: PostgresStoreNames): unknown {
  // Duck-typed: socket errors come from Node's core, which may be another realm than ours (a test runner's vm).
  if (error instanceof AppError || typeof error !== 'object' || error === null || typeof (error as Error).message !== 'string') return error;
  const code = (error as { code?: unknown }).code;
  const { message } = error as Error;
  const unreachable = typeof code === 'string' ? UNREACHABLE_ERRNOS.has(code) || UNREACHABLE_SQLSTATE.test(code) : UNREACHABLE_MESSAGE.test(message);
  if (unreachable) {
    return new UnavailableError(
      `${names.code}-unreachable`,
      `${at.location}: cannot reach the PostgreSQL ${names.store} (${reason(message, code, at.secrets)}); check SVC_STORE and that the server is running`,
      { cause: error },
    );
  }
  if (code === '42501') {
    return new PermissionError(
      `${names.code}-permission-denied`,
      `${at.location}: the PostgreSQL user lacks rights (${reason(message, code, at.secrets)}); grant it ownership of the ${names.tables} tables or use the account that created them`,
      { cause: error },
    );
  }
  return error;
}

function reason(message: string, code: unknown, secrets: readonly string[]): string {
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host name lookup failed',
    ETIMEDOUT: 'timed out',
    '28P01': 'password authentication failed',
  };
  const text = (typeof code === 'string' && known[code]) || message.split('\n')[0] || String(code);
  return secrets.reduce((shown, secret) => shown.split(secret).join('***'), text);
}

/** The URL as messages may show it: every password replaced by ***. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    for (const key of [...parsed.searchParams.keys()]) if (/password/i.test(key)) parsed.searchParams.set(key, '***');
    return parsed.toString();
  } catch {
    // Not a URL (a libpq key=value string): hide password=… and anything between user: and @.
    return url.replace(/(password\s*=\s*)('[^']*'|\S+)/gi, '$1***').replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
  }
}

function secretsOf(url: string): string[] {
  try {
    const parsed = new URL(url);
    const found = [parsed.password, safeDecode(parsed.password)];
    for (const [key, value] of parsed.searchParams) if (/password/i.test(key)) found.push(value);
    return [...new Set(found.filter((secret) => secret.length > 0))];
  } catch {
    return [];
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
