#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Checks `sse-conform export` with the tools its users run (tools/docs/export.md):
//   node check.js jsonschema BIN CASES_DIR WORK_DIR   ajv (2020-12) against the generated cases
//   node check.js openapi    BIN WORK_DIR             @seriousme/openapi-schema-validator (3.2)
//   node check.js typescript BIN WORK_DIR             tsc --strict --noEmit, declarations + consumer.ts
// Exit 0 when the check holds, 1 when it does not, 77 when node_modules is
// missing (skipped; with SSEC_REQUIRE_EXPORT_CHECKS=1, as CI sets it, 1).
// Each check also runs controls that must fail (a weakened schema, an invalid
// OpenAPI document), so a check that cannot fail is itself a failure.
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const here = __dirname;
if (!fs.existsSync(path.join(here, 'node_modules'))) {
  const required = process.env.SSEC_REQUIRE_EXPORT_CHECKS === '1';
  console.log(
    `${required ? 'FAILED' : 'SKIPPED'}: tools/export-check/node_modules is missing (run tools/install-deps.sh)` +
      (required ? '; SSEC_REQUIRE_EXPORT_CHECKS=1 forbids skipping' : ''),
  );
  process.exit(required ? 1 : 77);
}

function exportTo(bin, format, out, extra = []) {
  const r = require('child_process').spawnSync(bin, ['export', '--to', format, '-o', out, ...extra], {
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    console.error(`sse-conform export --to ${format} failed (${r.status ?? r.signal ?? r.error}):\n${r.stderr}`);
    process.exit(1);
  }
  if (!/not expressible in /.test(r.stderr)) {
    console.error(`sse-conform export --to ${format}: no "not expressible in" list on stderr`);
    process.exit(1);
  }
  return r.stderr;
}

// Every x-sse-conform-* keyword in a schema, so ajv's strict mode accepts them as annotations.
function extensionKeys(node, keys = new Set()) {
  if (Array.isArray(node)) node.forEach((n) => extensionKeys(n, keys));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith('x-')) keys.add(k);
      extensionKeys(v, keys);
    }
  }
  return keys;
}

// Every x- keyword plus the annotations of the OpenAPI 3.2 dialect, for ajv's strict mode.
function newAjv(schema, options = {}) {
  const Ajv2020 = require('ajv/dist/2020');
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, ...options });
  for (const k of extensionKeys(schema)) ajv.addKeyword(k);
  return ajv;
}

// The generated cases, every one of them: [{label, layer, frames, findings}],
// frames being {kind, json} (json undefined when the data is not JSON).
function loadCases(casesDir) {
  const YAML = require('yaml');
  const out = [];
  for (const file of fs.readdirSync(casesDir).filter((f) => f.endsWith('.yaml')).sort()) {
    for (const c of YAML.parse(fs.readFileSync(path.join(casesDir, file), 'utf8'))) {
      const frames = (c.dialect_events || '')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l))
        .map((e) => {
          if (typeof e.raw !== 'string') throw new Error(`${file} ${c.id}: a dialect event without raw`);
          try {
            return { kind: e.kind, json: JSON.parse(e.raw) };
          } catch {
            return { kind: e.kind, json: undefined };
          }
        });
      out.push({ label: `${file} ${c.id} "${c.name}"`, layer: c.layer, frames, findings: c.findings || [] });
    }
  }
  return out;
}

// The cases against one set of validators (dialect -> ajv function), and the
// rule ids each schema expresses (dialect -> Set).
function runCases(cases, validators, expressed) {
  const r = { valid: 0, invalid: 0, frames: 0, unknownFrames: 0, failures: [], notExpressible: new Map(), notJson: [] };
  for (const c of cases) {
    const validate = validators[c.layer];
    if (!validate) {
      r.failures.push(`${c.label}: no schema for layer ${c.layer}`);
      continue;
    }
    const byRule = c.findings.filter((id) => expressed[c.layer].has(id));
    if (byRule.length === 0) {
      // Conforming, or broken only by rules the schema does not express: every
      // frame whose type is structured (a catalog type) or unknown validates;
      // plain-text and error frames are not the schema's.
      const frames = c.frames.filter((f) => f.kind === 'structured' || f.kind === 'unknown');
      r.frames += frames.length;
      r.unknownFrames += frames.filter((f) => f.kind === 'unknown').length;
      c.findings.forEach((id) => r.notExpressible.set(id, (r.notExpressible.get(id) || 0) + 1));
      const bad = frames.findIndex((f) => !validate(f.json));
      if (bad >= 0) r.failures.push(`${c.label}: frame ${bad + 1} rejected: ${JSON.stringify(frames[bad].json)}`);
      else r.valid++;
      continue;
    }
    // Broken by a rule the schema expresses: some frame whose data is JSON is rejected.
    const json = c.frames.filter((f) => f.json !== undefined).map((f) => f.json);
    r.frames += json.length;
    if (json.some((f) => !validate(f))) r.invalid++;
    else if (json.length < c.frames.length) r.notJson.push(`${c.label} (${byRule.join(', ')})`);
    else r.failures.push(`${c.label}: findings ${byRule.join(', ')} but every frame validates`);
  }
  return r;
}

// Weakened copies of a schema: each must make the case check fail, or the
// check could not see what the schema is there for.
const mutations = {
  'no required keys': (s) => {
    for (const def of Object.values(s.$defs)) if (Array.isArray(def.required)) def.required = ['type'];
  },
  'no field types': (s) => {
    for (const def of Object.values(s.$defs)) {
      for (const [k, p] of Object.entries(def.properties || {})) if (k !== 'type') delete p.type;
    }
  },
  'known types only': (s) => {
    s.properties.type.enum = s.allOf.map((b) => b.if.properties.type.const);
  },
};

// A frame of a listed type without one of its required fields: the errors a
// validator gives must all be about that type's schema (the `if`/`then` that
// type selects), where a oneOf over the same schemas reports every branch.
function oneBranchNamed(schema) {
  const dialect = schema['x-sse-conform-catalog'].dialect;
  const branch = schema.allOf.find((b) => (schema.$defs[b.then.$ref.split('/').pop()].required || []).length > 1);
  if (!branch) return { ok: true, line: `${dialect}: no type with a required field besides type` };
  const name = branch.then.$ref.split('/').pop();
  const frame = { type: branch.if.properties.type.const };
  const validate = newAjv(schema, { allErrors: true }).compile(schema);
  const asOneOf = structuredClone(schema);
  delete asOneOf.allOf;
  const unknown = Object.keys(schema.$defs).find((k) => schema.$defs[k]['x-sse-conform-unknown-type']);
  asOneOf.oneOf = [...schema.allOf.map((b) => ({ $ref: b.then.$ref })), { $ref: `#/$defs/${unknown}` }];
  const validateOneOf = newAjv(asOneOf, { allErrors: true }).compile(asOneOf);
  const rejected = !validate(frame);
  const errors = validate.errors || [];
  validateOneOf(frame);
  const named = errors.every((e) => e.schemaPath.includes(`/$defs/${name}/`) || e.keyword === 'if');
  return {
    ok: rejected && named && errors.length <= 3,
    line: `${dialect}: ${JSON.stringify(frame)} gives ${errors.length} errors, all about ${name}` +
      ` (a oneOf over the same schemas: ${(validateOneOf.errors || []).length})`,
  };
}

function checkJsonSchema(bin, casesDir, work) {
  const outDir = path.join(work, 'schemas');
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  exportTo(bin, 'jsonschema', outDir);
  const schemas = {};
  const validators = {};
  const expressed = {};
  for (const file of fs.readdirSync(outDir)) {
    const schema = JSON.parse(fs.readFileSync(path.join(outDir, file), 'utf8'));
    const dialect = schema['x-sse-conform-catalog'].dialect;
    schemas[dialect] = schema;
    validators[dialect] = newAjv(schema).compile(schema);
    expressed[dialect] = new Set(
      schema['x-sse-conform-rules'].filter((r) => r.expressed_by).map((r) => r.id),
    );
  }
  // Every dialect: one bad frame, one branch named.
  let named = 0;
  for (const schema of Object.values(schemas)) {
    const n = oneBranchNamed(schema);
    console.log(`jsonschema: one branch named: ${n.line}`);
    if (!n.ok) {
      console.error(`jsonschema: a bad frame's errors are not all about its own type: ${n.line}`);
      named = 1;
    }
  }
  // On standard output the dialects are one document; each embedded schema
  // is found by its $id and validates as the file of its own does.
  const bundled = require('child_process').spawnSync(bin, ['export', '--to', 'jsonschema'], { encoding: 'utf8' });
  const bundle = bundled.status === 0 ? JSON.parse(bundled.stdout) : null;
  if (!bundle || Object.keys(bundle.$defs).sort().join() !== Object.keys(schemas).sort().join()) {
    console.error(`jsonschema: export to standard output is not one document of every dialect (${bundled.status}): ${bundled.stderr}`);
    named = 1;
  } else {
    const ajv = newAjv(bundle);
    ajv.addSchema(bundle);
    const ok = Object.keys(schemas).every((d) => {
      const v = ajv.getSchema(`urn:sse-conform:schema:${d}`);
      return v && v({ type: 'an-unknown-type' }) && !v({ type: 3 });
    });
    console.log(`jsonschema: standard output: one document, ${Object.keys(bundle.$defs).length} embedded schemas found by $id: ${ok ? 'each validates' : 'NOT all validate'}`);
    if (!ok) named = 1;
  }
  const cases = loadCases(casesDir);
  const r = runCases(cases, validators, expressed);
  const layers = [...new Set(cases.map((c) => c.layer))].sort().join(', ');
  console.log(
    `jsonschema: ${cases.length} cases (every case of ${casesDir}, layers ${layers}): ` +
      `${r.valid} validate, ${r.invalid} rejected as their field findings say, ${r.notJson.length} listed; ` +
      `${r.frames} frames (${r.unknownFrames} of unknown types)`,
  );
  const list = [...r.notExpressible.entries()].map(([id, n]) => `${id} (${n})`).join(', ');
  console.log(`jsonschema: cases whose findings the schema does not express (their frames validate): ${list || 'none'}`);
  console.log(
    `jsonschema: broken cases whose broken frame is not JSON (outside a JSON Schema): ${r.notJson.join('; ') || 'none'}`,
  );
  let code = named;
  if (r.valid + r.invalid + r.notJson.length + r.failures.length !== cases.length || cases.length === 0) {
    console.error(`jsonschema: ${cases.length} cases loaded but not all were checked`);
    code = 1;
  }
  if (r.failures.length) {
    console.error(`jsonschema: ${r.failures.length} failures:\n  ${r.failures.join('\n  ')}`);
    code = 1;
  }
  // The controls: each weakened schema must fail some case.
  for (const [name, mutate] of Object.entries(mutations)) {
    const weak = {};
    for (const [dialect, schema] of Object.entries(schemas)) {
      const copy = structuredClone(schema);
      mutate(copy);
      weak[dialect] = newAjv(copy, { strict: false }).compile(copy);
    }
    const m = runCases(cases, weak, expressed);
    console.log(`jsonschema: control "${name}": ${m.failures.length} cases fail (must be > 0)`);
    if (m.failures.length === 0) {
      console.error(`jsonschema: the control "${name}" fails no case: the check cannot see it`);
      code = 1;
    }
  }
  return code;
}

async function checkOpenApi(bin, work) {
  fs.mkdirSync(work, { recursive: true });
  const file = path.join(work, 'sse-conform.openapi.json');
  exportTo(bin, 'openapi', file);
  const { Validator } = require('@seriousme/openapi-schema-validator');
  const validator = new Validator();
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (doc.openapi !== '3.2.0') {
    console.error(`openapi: version ${doc.openapi}, expected 3.2.0`);
    return 1;
  }
  if (!Validator.supportedVersions.has('3.2')) {
    console.error(`openapi: the validator does not know 3.2 (${[...Validator.supportedVersions].join(', ')})`);
    return 1;
  }
  const res = await validator.validate(doc);
  if (!res.valid) {
    console.error(`openapi: invalid against the OpenAPI 3.2 schema:\n${JSON.stringify(res.errors, null, 2)}`);
    return 1;
  }
  // Every $ref resolves, and each path streams text/event-stream with an itemSchema.
  const missing = [];
  (function walk(n) {
    if (Array.isArray(n)) n.forEach(walk);
    else if (n && typeof n === 'object') {
      if (typeof n.$ref === 'string') {
        const name = n.$ref.replace('#/components/schemas/', '');
        if (!doc.components.schemas[name]) missing.push(n.$ref);
      }
      Object.values(n).forEach(walk);
    }
  })(doc);
  const streams = Object.values(doc.paths).filter(
    (p) => p.get.responses['200'].content['text/event-stream'].itemSchema,
  ).length;
  if (missing.length) {
    console.error(`openapi: unresolved $ref: ${missing.join(', ')}`);
    return 1;
  }
  console.log(
    `openapi: valid OpenAPI ${doc.openapi} (${validator.version} schema of @seriousme/openapi-schema-validator), ` +
      `${Object.keys(doc.components.schemas).length} schemas, ${streams} text/event-stream paths, every $ref resolves`,
  );
  // The OpenAPI schema checks the document's structure, not its Schema
  // Objects: compile each item schema (and through it every component) with
  // ajv 2020-12 in strict mode, the OpenAPI 3.2 dialect's keywords declared.
  const schemas = JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('#/components/schemas/', '#/$defs/'));
  const root = { $id: 'urn:sse-conform:openapi', $defs: schemas };
  let code = 0;
  let compiled = 0;
  for (const name of Object.keys(schemas).filter((n) => n.endsWith('SseItem'))) {
    const ajv = newAjv(root);
    for (const k of ['discriminator', 'xml', 'externalDocs', 'example']) ajv.addKeyword(k);
    const item = ajv.compile({ ...root, $ref: `#/$defs/${name}` });
    compiled++;
    // Every item schema requires `data`, a string; `retry` is a non-negative integer.
    const frame = { event: 'message', data: '{"type":"x"}', id: '1', retry: 3000 };
    if (!item(frame) || item({ event: 'message' }) || item({ data: 1 }) || item({ ...frame, retry: -1 })) {
      console.error(`openapi: ${name} does not hold the SSE fields (data required and a string, retry >= 0)`);
      code = 1;
    }
  }
  console.log(`openapi: ${compiled} item schemas compile with ajv 2020-12 (strict) and hold the SSE fields`);
  // The controls: the validator must reject an invalid 3.2 document, and this
  // document labelled 3.1 (itemSchema is new in 3.2).
  const media = (d) => Object.values(d.paths)[0].get.responses['200'].content['text/event-stream'];
  const broken = structuredClone(doc);
  media(broken).itemSchemas = media(broken).itemSchema;
  const as31 = structuredClone(doc);
  as31.openapi = '3.1.1';
  const controls = [
    ['a misspelt media type key', broken, 'itemSchemas'],
    ['the document labelled 3.1.1', as31, 'itemSchema'],
  ];
  for (const [name, d, key] of controls) {
    const r = await new Validator().validate(d);
    // Rejected, and for the right reason: the errors name the key.
    const named = !r.valid && JSON.stringify(r.errors).includes(`"unevaluatedProperty":"${key}"`);
    console.log(`openapi: control ${name}: ${named ? `rejected for ${key}` : 'not rejected for it'} (must be rejected)`);
    if (!named) {
      console.error(`openapi: the validator does not reject ${name} for ${key}: it does not check what it should`);
      code = 1;
    }
  }
  return code;
}

function checkTypeScript(bin, work) {
  fs.mkdirSync(work, { recursive: true });
  exportTo(bin, 'typescript', path.join(work, 'sse-conform.ts'));
  fs.copyFileSync(path.join(here, 'consumer.ts'), path.join(work, 'consumer.ts'));
  const tsc = path.join(here, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = [tsc, '--strict', '--noEmit', '--target', 'es2020', '--module', 'commonjs',
    path.join(work, 'sse-conform.ts'), path.join(work, 'consumer.ts')];
  try {
    execFileSync(process.execPath, args, { encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    console.error(`typescript: tsc --strict failed:\n${e.stdout}${e.stderr}`);
    return 1;
  }
  const version = require(path.join(here, 'node_modules', 'typescript', 'package.json')).version;
  console.log(`typescript: tsc ${version} --strict --noEmit compiles the declarations and consumer.ts`);
  // At run time: each dialect's list holds its catalog's types, and the guard
  // tells a listed type from any other.
  const ts = require('typescript');
  const js = ts.transpileModule(fs.readFileSync(path.join(work, 'sse-conform.ts'), 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS },
  });
  const mod = { exports: {} };
  require('vm').runInNewContext(js.outputText, { exports: mod.exports });
  const schemaOut = JSON.parse(
    require('child_process').spawnSync(bin, ['export', '--to', 'jsonschema'], { encoding: 'utf8' }).stdout,
  );
  const wrong = [];
  for (const [dialect, schema] of Object.entries(schemaOut.$defs)) {
    const pascal = dialect.replace(/(^|[^A-Za-z0-9])([a-z0-9])/g, (_, __, c) => c.toUpperCase());
    const list = mod.exports[`${pascal[0].toLowerCase()}${pascal.slice(1)}EventTypes`];
    const guard = mod.exports[`isKnown${pascal}Type`];
    const types = schema.allOf.map((b) => b.if.properties.type.const);
    if (!Array.isArray(list) || list.join() !== types.join() || typeof guard !== 'function' ||
        !types.every((t) => guard(t)) || guard('an-unknown-type')) {
      wrong.push(dialect);
    }
  }
  if (wrong.length) {
    console.error(`typescript: the run-time list or guard is wrong for ${wrong.join(', ')}`);
    return 1;
  }
  console.log(`typescript: run time: ${Object.keys(schemaOut.$defs).length} lists of types and guards, each its catalog's`);
  return checkHostileTypeScript(bin, work, tsc);
}

// hostile.yaml puts every way out of a comment into every free text and
// declares types whose plain names collide: the export must still compile,
// narrow on each type, and, transpiled and run, execute nothing.
function checkHostileTypeScript(bin, work, tsc) {
  const out = path.join(work, 'hostile.ts');
  exportTo(bin, 'typescript', out, ['--catalog', path.join(here, 'hostile.yaml')]);
  const consumer = path.join(work, 'hostile-consumer.ts');
  fs.writeFileSync(
    consumer,
    "import type { DemoSseEvent } from './hostile';\n" +
      'export function k(e: DemoSseEvent): string {\n' +
      "  switch (e.type) { case 'sse': case 'unknown': case 'a-b': case 'a_b': case 'event-type': return e.k; }\n" +
      '}\n',
  );
  try {
    execFileSync(process.execPath, [tsc, '--strict', '--noEmit', '--target', 'es2020', '--module', 'commonjs', out,
      consumer], { encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    console.error(`typescript: the hostile catalog's export does not compile:\n${e.stdout}${e.stderr}`);
    return 1;
  }
  const ts = require('typescript');
  const js = ts.transpileModule(fs.readFileSync(out, 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS } });
  const sandbox = { exports: {} };
  require('vm').runInNewContext(js.outputText, sandbox);
  if ('pwned' in sandbox) {
    console.error('typescript: the hostile catalog\'s export runs a statement of the catalog\'s text');
    return 1;
  }
  // The control: the same run sees a statement that does get out.
  const control = { exports: {} };
  require('vm').runInNewContext(js.outputText + '\nglobalThis.pwned = 1;\n', control);
  if (!('pwned' in control)) {
    console.error('typescript: the control statement did not run: the check cannot see an escape');
    return 1;
  }
  console.log('typescript: the hostile catalog exports declarations that compile, narrow on every type, and run nothing');
  return 0;
}

async function main() {
  const [what, bin, ...rest] = process.argv.slice(2);
  let code;
  if (what === 'jsonschema') code = checkJsonSchema(bin, rest[0], rest[1]);
  else if (what === 'openapi') code = await checkOpenApi(bin, rest[0]);
  else if (what === 'typescript') code = checkTypeScript(bin, rest[0]);
  else {
    console.error('usage: check.js jsonschema|openapi|typescript BIN [CASES_DIR] WORK_DIR');
    code = 2;
  }
  process.exit(code);
}
main();
