import type { InjectionToken } from 'tsyringe';

/** Name-based UUIDs (RFC 9562 version 5): the same namespace and name give the same UUID on every machine. */
export interface Uuids {
  v5(namespace: string, name: string): string;
}

export const UUIDS: InjectionToken<Uuids> = Symbol('Uuids');
