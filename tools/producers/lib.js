import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// What every producer app shares: the port from the command line, the one line that tells
// run.sh where the app listens, and the line that tells compare.js a value was refused.

// The port given as the first argument (0, the default, lets the system choose).
export function portArgument() {
  const text = process.argv[2] ?? '0';
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    process.stderr.write(`usage: node ${process.argv[1]} PORT (0 = any free port)\n`);
    process.exit(2);
  }
  return port;
}

// Prints `listening http://127.0.0.1:PORT` once the server has its address.
export function announce(port) {
  process.stdout.write(`listening http://127.0.0.1:${port}\n`);
}

// Prints `refused ROUTE KEY: MESSAGE` for a value the framework would not write (it threw).
export function refused(route, key, error) {
  const message = String(error && error.message ? error.message : error).replace(/[\r\n]+/g, ' ');
  process.stdout.write(`refused ${route} ${key}: ${message}\n`);
}

// True when the module is the program node runs (not imported by compare.js).
export function isMain(meta) {
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(meta.url));
  } catch {
    return false;
  }
}
