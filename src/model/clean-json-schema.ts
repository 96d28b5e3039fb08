/**
 * Tidies a JSON Schema generated from an Effect Schema for outside consumers (OpenAPI clients, MCP hosts):
 *
 * - Effect's internal names are dropped: the `$id` of its built-in schemas (`/schemas/unknown`, repeated
 *   wherever `unknown` appears, which validators reject as an ambiguous id) and the `title` it derives from
 *   refinements (`maxLength(100000)`, `between(1, 100)`, `int`), which hosts show to users as if it meant
 *   something.
 * - A `$ref` never has siblings: a local `$defs` target is inlined under the siblings (`limit` becomes
 *   `{ type: "integer", minimum: 1, maximum: 100 }`), any other target is wrapped in `allOf`. Many hosts and
 *   older validators ignore everything beside a `$ref`, which would silently lose the bounds.
 * - `$schema` and `$defs` that nothing references any more are removed.
 */
type JsonSchema = { [key: string]: unknown };

const generatedTitle = /^(?:[a-z][A-Za-z]*\(.*\)|int|unknown|any|object|array|\{\})$/;
const schemaMaps = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
const schemaLists = ["anyOf", "allOf", "oneOf", "prefixItems"];
const schemaValues = [
  "items",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
];

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const localDefinition = (ref: string, defs: JsonSchema): JsonSchema | undefined => {
  const match = /^#\/\$defs\/([^/]+)$/.exec(ref);
  const target = match?.[1] === undefined ? undefined : defs[match[1]];
  return isObject(target) ? target : undefined;
};

const clean = (node: unknown, defs: JsonSchema): unknown => {
  if (!isObject(node)) return node;
  let schema: JsonSchema = { ...node };
  if (typeof schema.$id === "string" && schema.$id.startsWith("/schemas/")) delete schema.$id;
  if (typeof schema.title === "string" && generatedTitle.test(schema.title)) delete schema.title;
  if (typeof schema.$ref === "string" && Object.keys(schema).length > 1) {
    const { $ref, ...siblings } = schema;
    const target = localDefinition($ref as string, defs);
    schema =
      target === undefined
        ? { allOf: [{ $ref }], ...siblings }
        : { ...(clean(target, defs) as JsonSchema), ...siblings };
  }
  for (const key of schemaMaps)
    if (isObject(schema[key]))
      schema[key] = Object.fromEntries(
        Object.entries(schema[key] as JsonSchema).map(([name, value]) => [name, clean(value, defs)]),
      );
  for (const key of schemaLists)
    if (Array.isArray(schema[key]))
      schema[key] = (schema[key] as unknown[]).map((value) => clean(value, defs));
  for (const key of schemaValues) if (isObject(schema[key])) schema[key] = clean(schema[key], defs);
  return schema;
};

const referencedDefinitions = (node: unknown, found = new Set<string>()): Set<string> => {
  if (Array.isArray(node)) for (const value of node) referencedDefinitions(value, found);
  else if (isObject(node))
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && value.startsWith("#/$defs/"))
        found.add(value.slice("#/$defs/".length));
      else referencedDefinitions(value, found);
    }
  return found;
};

export const cleanJsonSchema = <T extends object>(input: T): T & JsonSchema => {
  const { $schema: _, ...rest } = input as JsonSchema;
  const defs = isObject(rest.$defs) ? rest.$defs : {};
  const cleaned = clean(rest, defs) as JsonSchema;
  if (isObject(cleaned.$defs)) {
    const { $defs, ...body } = cleaned;
    const used = referencedDefinitions(body);
    // Definitions referenced only from other definitions stay too.
    for (let size = -1; size !== used.size; ) {
      size = used.size;
      for (const name of [...used]) referencedDefinitions(($defs as JsonSchema)[name], used);
    }
    const kept = Object.entries($defs as JsonSchema).filter(([name]) => used.has(name));
    return (kept.length === 0 ? body : { ...body, $defs: Object.fromEntries(kept) }) as T & JsonSchema;
  }
  return cleaned as T & JsonSchema;
};
