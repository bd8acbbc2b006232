#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Checks `sse-conform export` with the tools its users run (tools/docs/export.md):
//   node check.js jsonschema BIN CASES_DIR WORK_DIR   ajv (2020-12) against the generated cases
//   node check.js openapi    BIN WORK_DIR             @seriousme/openapi-schema-validator (3.2)
//   node check.js typescript BIN WORK_DIR             tsc --strict --noEmit, declarations + consumer.ts
// Exit 0 when the check holds, 1 when it does not, 77 when node_modules is missing (skipped).
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const here = __dirname;
if (!fs.existsSync(path.join(here, 'node_modules'))) {
  console.log('SKIPPED: tools/export-check/node_modules is missing (run tools/install-deps.sh)');
  process.exit(77);
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

function checkJsonSchema(bin, casesDir, work) {
  const Ajv2020 = require('ajv/dist/2020');
  const YAML = require('yaml');
  const outDir = path.join(work, 'schemas');
  fs.mkdirSync(outDir, { recursive: true });
  exportTo(bin, 'jsonschema', outDir);
  const validators = {};
  const expressed = {};
  for (const file of fs.readdirSync(outDir)) {
    const schema = JSON.parse(fs.readFileSync(path.join(outDir, file), 'utf8'));
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    for (const k of extensionKeys(schema)) ajv.addKeyword(k);
    const dialect = schema['x-sse-conform-catalog'].dialect;
    validators[dialect] = ajv.compile(schema);
    expressed[dialect] = new Set(
      schema['x-sse-conform-rules'].filter((r) => r.expressed_by).map((r) => r.id),
    );
  }
  const counts = { valid: 0, invalid: 0, frames: 0 };
  const failures = [];
  const notExpressible = new Map();
  const notJson = [];
  for (const file of fs.readdirSync(casesDir).filter((f) => f.endsWith('.yaml')).sort()) {
    const cases = YAML.parse(fs.readFileSync(path.join(casesDir, file), 'utf8'));
    for (const c of cases) {
      const validate = validators[c.layer];
      if (!validate) continue;
      // Every frame with its data: the parsed JSON, or undefined when the data is not JSON.
      const all = (c.dialect_events || '')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l))
        .filter((e) => typeof e.raw === 'string')
        .map((e) => {
          try {
            return { kind: e.kind, json: JSON.parse(e.raw) };
          } catch {
            return { kind: e.kind, json: undefined };
          }
        });
      const findings = c.findings || [];
      const byRule = findings.filter((id) => expressed[c.layer].has(id));
      const label = `${file} ${c.id} "${c.name}"`;
      if (byRule.length === 0) {
        // Conforming, or broken only by rules the schema does not express: every
        // structured frame validates (plain-text frames are not the schema's).
        const frames = all.filter((f) => f.kind === 'structured').map((f) => f.json);
        counts.frames += frames.length;
        findings.forEach((id) => notExpressible.set(id, (notExpressible.get(id) || 0) + 1));
        const bad = frames.findIndex((f) => !validate(f));
        if (bad >= 0) failures.push(`${label}: frame ${bad + 1} rejected: ${JSON.stringify(frames[bad])}`);
        else counts.valid++;
        continue;
      }
      // Broken by a rule the schema expresses: some frame whose data is JSON is rejected.
      const json = all.filter((f) => f.json !== undefined).map((f) => f.json);
      counts.frames += json.length;
      if (json.some((f) => !validate(f))) counts.invalid++;
      else if (json.length < all.length) notJson.push(`${label} (${byRule.join(', ')})`);
      else failures.push(`${label}: findings ${byRule.join(', ')} but every frame validates`);
    }
  }
  console.log(
    `jsonschema: ${counts.valid} cases validate, ${counts.invalid} cases rejected as their field findings say, ` +
      `${counts.frames} frames`,
  );
  const list = [...notExpressible.entries()].map(([id, n]) => `${id} (${n})`).join(', ');
  console.log(`jsonschema: cases whose findings the schema does not express (their frames validate): ${list || 'none'}`);
  console.log(
    `jsonschema: broken cases whose broken frame is not JSON (outside a JSON Schema): ${notJson.join('; ') || 'none'}`,
  );
  if (failures.length) {
    console.error(`jsonschema: ${failures.length} failures:\n  ${failures.join('\n  ')}`);
    return 1;
  }
  return 0;
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
  return 0;
}

function checkTypeScript(bin, work) {
  fs.mkdirSync(work, { recursive: true });
  exportTo(bin, 'typescript', path.join(work, 'sse-conform.d.ts'));
  fs.copyFileSync(path.join(here, 'consumer.ts'), path.join(work, 'consumer.ts'));
  const tsc = path.join(here, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = [tsc, '--strict', '--noEmit', '--target', 'es2020', '--module', 'commonjs',
    path.join(work, 'sse-conform.d.ts'), path.join(work, 'consumer.ts')];
  try {
    execFileSync(process.execPath, args, { encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    console.error(`typescript: tsc --strict failed:\n${e.stdout}${e.stderr}`);
    return 1;
  }
  const version = require(path.join(here, 'node_modules', 'typescript', 'package.json')).version;
  console.log(`typescript: tsc ${version} --strict --noEmit compiles the declarations and consumer.ts`);
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
