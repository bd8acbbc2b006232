// The two small read-outs run.sh needs, so that the shell does no JSON.
//
// node describe.js meta APP     prints the app's routes, one `ROUTE DIALECT` a line, after a
//                               first line `FRAMEWORK<TAB>VERSIONS<TAB>EXPOSES` (versions as
//                               installed in node_modules)
// node describe.js check JSON   prints one line of `sse-conform check --json`'s report:
//                               `conforming|NOT conforming (N must, N should: RULE xN, ...)`

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

function installedVersion(name) {
  return JSON.parse(readFileSync(resolve(here, 'node_modules', name, 'package.json'), 'utf8')).version;
}

async function meta(appFile) {
  const app = await import(pathToFileURL(resolve(appFile)).href);
  const { framework, packages, exposes, routes } = app.meta;
  const versions = packages.length
    ? packages.map((name, i) => (i === 0 ? installedVersion(name) : `${name} ${installedVersion(name)}`)).join(', ')
    : `node ${process.versions.node}`;
  const lines = [`${framework}\t${versions}\t${exposes}`];
  for (const [route, dialect] of Object.entries(routes)) lines.push(`${route} ${dialect}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

function check(jsonFile) {
  const report = JSON.parse(readFileSync(jsonFile, 'utf8'));
  const counts = new Map();
  for (const finding of report.findings) {
    const name = `${finding.rule} (${finding.severity})`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const rules = [...counts].map(([name, count]) => (count > 1 ? `${name} x${count}` : name));
  const { must, should, conforming } = report.summary;
  const verdict = conforming ? 'conforming' : 'NOT conforming';
  process.stdout.write(`${verdict} (${must} must, ${should} should${rules.length ? `: ${rules.join(', ')}` : ''})\n`);
}

const [command, argument] = process.argv.slice(2);
if (command === 'meta' && argument) await meta(argument);
else if (command === 'check' && argument) check(argument);
else {
  process.stderr.write('usage: node describe.js meta APP | check JSON\n');
  process.exit(2);
}
