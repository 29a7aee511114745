/**
 * The JSON Schema of every endpoint's answer, read off the TypeScript types the table states
 * (`answer<T>()` gives zod no shape, so the types are the only full description): the compiler resolves
 * each endpoint's `answer` to its type, and this walks that type into JSON Schema (draft 2020-12, OpenAPI
 * 3.1's dialect). Named interfaces and aliases become `$defs`, referenced where they recur. `npm run
 * gen:endpoints` writes the result to answer-schemas.json; a test fails while it is out of date, and the
 * OpenAPI test fails on an endpoint whose answer has no schema. Build-time only: the server reads the JSON.
 *
 * Libraries that turn TypeScript into JSON Schema (ts-json-schema-generator) read declarations, not the
 * checker's resolved types, and stop at the table's values (`typeof`, `z.infer`): see docs/decisions.md.
 */
import path from 'node:path';
import ts from 'typescript';

type Schema = Record<string, unknown>;

export interface AnswerSchemas {
  /** By endpoint name (`module.fn`): the answer's schema, `$ref`s into `$defs`. */
  answers: Record<string, Schema>;
  $defs: Record<string, Schema>;
}

const here = import.meta.dirname;

export function renderAnswerSchemas(): AnswerSchemas {
  const configPath = path.join(here, '../tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, Object.assign({}, ts.sys, { onUnRecoverableConfigFileDiagnostic: () => undefined }));
  if (!config) throw new Error('cannot read packages/contract/tsconfig.json');
  const program = ts.createProgram({
    rootNames: [path.join(here, 'endpoints.ts'), path.join(here, 'api/deviceapi.ts')],
    options: Object.assign({}, config.options, { noEmit: true, composite: false, emitDeclarationOnly: false }),
  });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(path.join(here, 'endpoints.ts'));
  if (!file) throw new Error('endpoints.ts not found');
  const moduleSymbol = checker.getSymbolAtLocation(file);
  const apiSymbol = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.name === 'API');
  if (!apiSymbol) throw new Error('API not found in endpoints.ts');
  const apiType = checker.getTypeOfSymbol(apiSymbol);

  const defs: Record<string, Schema> = {};
  const defining = new Set<string>();
  const walking = new Set<number>();

  const nameOf = (type: ts.Type): string | null => {
    const symbol = type.aliasSymbol ?? (type.flags & ts.TypeFlags.Object && (type as ts.ObjectType).objectFlags & ts.ObjectFlags.Interface ? type.getSymbol() : undefined);
    if (!symbol) return null;
    const args = type.aliasTypeArguments ?? (type as ts.TypeReference).typeArguments ?? [];
    const base = symbol.getName();
    if (base === '__type' || base === '__object') return null;
    return args.length ? `${base}_${args.map((a) => nameOf(a) ?? checker.typeToString(a).replace(/\W+/g, '')).join('_')}` : base;
  };

  function walk(type: ts.Type): Schema {
    const f = type.flags;
    if (f & ts.TypeFlags.Any || f & ts.TypeFlags.Unknown) return {};
    if (f & ts.TypeFlags.Null) return { type: 'null' };
    if (f & ts.TypeFlags.StringLiteral) return { const: (type as ts.StringLiteralType).value };
    if (f & ts.TypeFlags.NumberLiteral) return { const: (type as ts.NumberLiteralType).value };
    if (f & ts.TypeFlags.BooleanLiteral) return { const: checker.typeToString(type) === 'true' };
    if (f & ts.TypeFlags.String || f & ts.TypeFlags.TemplateLiteral) return { type: 'string' };
    if (f & ts.TypeFlags.Number) return { type: 'number' };
    if (f & ts.TypeFlags.Boolean) return { type: 'boolean' };
    if (f & ts.TypeFlags.Undefined || f & ts.TypeFlags.Void) return {};
    if (type.isUnion()) {
      const parts = type.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined));
      // true | false is boolean
      const bools = parts.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral);
      const rest = parts.filter((t) => !(t.flags & ts.TypeFlags.BooleanLiteral));
      const schemas = [...(bools.length === 2 ? [{ type: 'boolean' }] : bools.map(walk)), ...rest.map(walk)];
      if (schemas.every((s) => 'const' in s)) return { enum: schemas.map((s) => s.const) };
      return schemas.length === 1 ? schemas[0]! : { anyOf: schemas };
    }
    if (f & ts.TypeFlags.Object) {
      if (type.getSymbol()?.getName() === 'Date') return { type: 'string', format: 'date-time' };
      const name = nameOf(type);
      if (name) {
        if (!defs[name] && !defining.has(name)) {
          defining.add(name);
          defs[name] = structure(type);
          defining.delete(name);
        }
        return { $ref: `#/$defs/${name}` };
      }
      // An anonymous type met again inside itself: said once, then left open.
      const id = (type as unknown as { id: number }).id;
      if (walking.has(id)) return { type: 'object' };
      walking.add(id);
      try {
        return structure(type);
      } finally {
        walking.delete(id);
      }
    }
    if (type.isIntersection()) return { allOf: type.types.map(walk) };
    return {};
  }

  /** An object type's shape: an array, a tuple or an object. */
  function structure(type: ts.Type): Schema {
    if (checker.isArrayType(type)) return { type: 'array', items: walk(checker.getTypeArguments(type as ts.TypeReference)[0]!) };
    if (checker.isTupleType(type)) {
      const target = (type as ts.TypeReference).target as ts.TupleType;
      const items = checker.getTypeArguments(type as ts.TypeReference).map(walk);
      return { type: 'array', prefixItems: items, minItems: target.minLength, maxItems: items.length };
    }
    return objectSchema(type);
  }

  function objectSchema(type: ts.Type): Schema {
    if (type.isIntersection()) return { allOf: type.types.map(walk) };
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const prop of checker.getPropertiesOfType(type)) {
      const decl = prop.valueDeclaration ?? prop.declarations?.[0];
      const propType = decl ? checker.getTypeOfSymbolAtLocation(prop, decl) : checker.getTypeOfSymbol(prop);
      if (propType.getCallSignatures().length) continue;
      properties[prop.getName()] = walk(propType);
      if (!(prop.flags & ts.SymbolFlags.Optional)) required.push(prop.getName());
    }
    const index = checker.getIndexInfosOfType(type)[0];
    const schema: Schema = { type: 'object', properties };
    if (required.length) schema.required = required;
    if (index) schema.additionalProperties = walk(index.type);
    return schema;
  }

  const answers: Record<string, Schema> = {};
  /** zod 4: a schema's `_output` is its output type. */
  const answerOf = (endpoint: ts.Type): ts.Type | null => {
    const answer = endpoint.getProperty('answer');
    const output = answer && checker.getTypeOfSymbol(answer).getProperty('_output');
    return output ? checker.getTypeOfSymbol(output) : null;
  };
  for (const mod of checker.getPropertiesOfType(apiType)) {
    for (const fn of checker.getPropertiesOfType(checker.getTypeOfSymbol(mod))) {
      const output = answerOf(checker.getTypeOfSymbol(fn));
      if (output) answers[`${mod.getName()}.${fn.getName()}`] = walk(output);
    }
  }
  // The device API's routes (api/deviceapi.ts), as `deviceapi.<route>`.
  const deviceFile = program.getSourceFile(path.join(here, 'api/deviceapi.ts'));
  const deviceModule = deviceFile && checker.getSymbolAtLocation(deviceFile);
  const deviceRoutes = deviceModule && checker.getExportsOfModule(deviceModule).find((s) => s.name === 'DEVICE_ROUTES');
  if (!deviceRoutes) throw new Error('DEVICE_ROUTES not found in api/deviceapi.ts');
  for (const route of checker.getPropertiesOfType(checker.getTypeOfSymbol(deviceRoutes))) {
    const output = answerOf(checker.getTypeOfSymbol(route));
    if (output) answers[`deviceapi.${route.getName()}`] = walk(output);
  }
  const sorted = <T>(o: Record<string, T>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  return { answers: sorted(answers), $defs: sorted(defs) };
}

export const answerSchemasText = () => `${JSON.stringify(renderAnswerSchemas(), null, 2)}\n`;
