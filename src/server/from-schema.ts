/**
 * `FromSchema`: the TypeScript type of the values a JSON Schema written `as const` accepts, so a
 * tool handler's arguments (and its `structuredContent`) are typed by the schema the kit checks
 * them against. Types only: nothing of it exists at run time.
 */

/**
 * The values `Schema` accepts, as a TypeScript type. Understood: `type` (one or a list; `integer`
 * is `number`), `properties` with `required` (the others optional), `additionalProperties` (a
 * schema types the keys of a map), `items` and `prefixItems` (a list form of `items` is a tuple),
 * `enum`, `const`, `anyOf` / `oneOf` (a union), `allOf` (an intersection), `nullable: true` and
 * nesting up to 12 levels (deeper is `unknown`, so a huge schema cannot slow the compiler down).
 * Everything else (`$ref`, `not`, `if`, formats, bounds) adds nothing: the value is at least as
 * the type says, checked further at run time. A schema whose literal types are lost (a `JsonSchema`
 * value, an object kept in a variable not written `as const`) gives `unknown`.
 *
 * @example
 * const schema = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } as const;
 * type Args = FromSchema<typeof schema>; // { id: string }
 */
export type FromSchema<Schema> = Value<Schema, 12>;

/**
 * The arguments a tool handler gets for `inputSchema`: {@link FromSchema} of an object schema,
 * `Record<string, unknown>` when the schema's literal types are lost (not written `as const`).
 */
export type ToolArguments<InputSchema> = InputSchema extends { readonly type: 'object' }
  ? FromSchema<InputSchema>
  : Record<string, unknown>;

/** The `structuredContent` `outputSchema` admits; `unknown` without one (or without its literal types). */
export type StructuredContentOf<OutputSchema> = [OutputSchema] extends [undefined] ? unknown : FromSchema<OutputSchema>;

declare const fromSchema: unique symbol;

/**
 * The default of `registerTool`'s `Args` and `Structured`: "take the type from the schema". Not a
 * type to write; only `registerTool`'s defaults are it.
 */
export interface TypeFromSchema {
  readonly [fromSchema]: true;
}

/** True when `Schema`'s literal types survived (written `as const`, or inline in the call). */
type Literal<Schema> = [Schema] extends [undefined] ? false : string extends keyof Schema ? false : true;

/**
 * A handler's argument type: the schema's ({@link ToolArguments}) unless `Args` was given (a type
 * argument, or the handler's own annotation). Given beside an `as const` schema, it must admit
 * what the schema does; else the schema's type stands (and the handler fails to compile).
 */
export type ArgumentsFor<Args, InputSchema> = [Args] extends [TypeFromSchema]
  ? ToolArguments<InputSchema>
  : Literal<InputSchema> extends true
    ? [ToolArguments<InputSchema>] extends [Args]
      ? Args
      : ToolArguments<InputSchema>
    : Args;

/** A handler's `structuredContent` type: the output schema's unless `Structured` was given as a type argument. */
export type StructuredFor<Structured, OutputSchema> = [Structured] extends [TypeFromSchema]
  ? StructuredContentOf<OutputSchema>
  : NoInfer<Structured>;

/** Depth budget: `Less[N]` is N − 1 (0 stays 0, where every schema is `unknown`). */
type Less = [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
type Depth = Less[number] | 12;

type Value<S, D extends Depth> = D extends 0
  ? unknown
  : S extends boolean
    ? S extends false
      ? never
      : unknown
    : S extends object
      ? Nullable<S, Typed<S, Less[D]> & Listed<S> & Constant<S> & Unions<S, Less[D]>>
      : unknown;

/** `nullable: true` (OpenAPI 3.0, still common in tool schemas) admits `null` too. */
type Nullable<S, T> = S extends { readonly nullable: true } ? T | null : T;

type Listed<S> = S extends { readonly enum: readonly (infer E)[] } ? Mutable<E> : unknown;

type Constant<S> = S extends { readonly const: infer C } ? Mutable<C> : unknown;

type Unions<S, D extends Depth> = (S extends { readonly anyOf: readonly unknown[] } ? Each<S['anyOf'], D> : unknown) &
  (S extends { readonly oneOf: readonly unknown[] } ? Each<S['oneOf'], D> : unknown) &
  (S extends { readonly allOf: readonly unknown[] } ? Every<S['allOf'], D> : unknown);

type Each<L extends readonly unknown[], D extends Depth> = L extends readonly [] ? never : Value<L[number], D>;

type Every<L, D extends Depth> = L extends readonly [infer First, ...infer Rest]
  ? Value<First, D> & Every<Rest, D>
  : unknown;

/** The type by `type`; without one, an object by its object keywords, an array by its array keywords. */
type Typed<S, D extends Depth> = S extends { readonly type: infer T }
  ? T extends readonly (infer Name)[]
    ? Name extends string
      ? OfType<Name, S, D>
      : unknown
    : T extends string
      ? string extends T
        ? unknown
        : OfType<T, S, D>
      : unknown
  : S extends { readonly properties: object } | { readonly required: readonly string[] }
    ? ObjectOf<S, D>
    : S extends { readonly additionalProperties: object }
      ? ObjectOf<S, D>
      : S extends { readonly items: unknown } | { readonly prefixItems: readonly unknown[] }
        ? ArrayOf<S, D>
        : unknown;

type OfType<Name extends string, S, D extends Depth> = Name extends 'string'
  ? string
  : Name extends 'number' | 'integer'
    ? number
    : Name extends 'boolean'
      ? boolean
      : Name extends 'null'
        ? null
        : Name extends 'object'
          ? ObjectOf<S, D>
          : Name extends 'array'
            ? ArrayOf<S, D>
            : unknown;

type ObjectOf<S, D extends Depth> = Flat<
  (S extends { readonly properties: infer P extends object } ? PropertiesOf<P, RequiredOf<S>, D> : unknown) &
    AdditionalOf<S, D>
>;

type RequiredOf<S> = S extends { readonly required: readonly (infer K)[] } ? K : never;

type PropertiesOf<P, R, D extends Depth> = {
  -readonly [K in keyof P as K extends R ? K : never]: Value<P[K], D>;
} & { -readonly [K in keyof P as K extends R ? never : K]?: Value<P[K], D> };

/**
 * The keys beside `properties`: none named with `additionalProperties: false`; typed by a schema
 * there (beside `properties` they are `unknown`: an index signature must admit the named
 * properties' types too); any key, `unknown`, for an object schema that names no properties.
 * Named properties without `additionalProperties` get no index signature: TypeScript's object
 * types admit other keys anyway, and a misspelt key should not type-check.
 */
type AdditionalOf<S, D extends Depth> = S extends { readonly additionalProperties: false }
  ? object
  : S extends { readonly properties: object }
    ? S extends { readonly additionalProperties: object }
      ? { [key: string]: unknown }
      : object
    : S extends { readonly additionalProperties: infer A extends object }
      ? { [key: string]: Value<A, D> }
      : { [key: string]: unknown };

type ArrayOf<S, D extends Depth> = S extends { readonly prefixItems: infer P extends readonly unknown[] }
  ? [...TupleOf<P, D>, ...(S extends { readonly items: false } ? [] : unknown[])]
  : S extends { readonly items: infer I extends readonly unknown[] }
    ? [...TupleOf<I, D>, ...(S extends { readonly additionalItems: false } ? [] : unknown[])]
    : S extends { readonly items: infer I }
      ? Value<I, D>[]
      : unknown[];

/** Positional items: each may be absent (a shorter array conforms unless `minItems` says otherwise). */
type TupleOf<P extends readonly unknown[], D extends Depth> = { -readonly [I in keyof P]?: Value<P[I], D> };

/** `as const` makes every nested array and object readonly: a value the handler gets is its own to change. */
type Mutable<T> = T extends object ? { -readonly [K in keyof T]: Mutable<T[K]> } : T;

/** One object type in hovers and messages instead of an intersection of its parts. */
type Flat<T> = T extends object ? { [K in keyof T]: T[K] } : T;
