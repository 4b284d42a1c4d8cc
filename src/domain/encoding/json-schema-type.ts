/**
 * The type of the JSON that a JSON Schema written `as const` describes, so a shape svc defines itself (where no
 * FedRAMP schema gives one) is written once, as the schema the API publishes, and its TypeScript type follows from
 * it. Knows the keywords those shapes use: `const`, `enum`, `type` (integer, number, string, boolean, array with
 * `items`, object with `properties`, `required` and `additionalProperties`); anything else is `unknown`.
 */
export type JsonSchemaType<S> = S extends { const: infer C }
  ? C
  : S extends { enum: readonly (infer E)[] }
    ? E
    : S extends { type: 'integer' | 'number' }
      ? number
      : S extends { type: 'string' }
        ? string
        : S extends { type: 'boolean' }
          ? boolean
          : S extends { type: 'array'; items: infer I }
            ? JsonSchemaType<I>[]
            : S extends { type: 'object' }
              ? ObjectType<S>
              : unknown;

type ObjectType<S> = Flat<
  (S extends { properties: infer P } ? PropertiesType<P, S extends { required: readonly (infer R)[] } ? R : never> : unknown) &
    (S extends { additionalProperties: infer A } ? (A extends false ? unknown : Record<string, JsonSchemaType<A>>) : unknown)
>;

/** The properties named in `required` (R) as they are, the others optional. */
type PropertiesType<P, R> = { -readonly [K in keyof P as K extends R ? K : never]: JsonSchemaType<P[K]> } & {
  -readonly [K in keyof P as K extends R ? never : K]?: JsonSchemaType<P[K]>;
};

type Flat<T> = { [K in keyof T]: T[K] };
