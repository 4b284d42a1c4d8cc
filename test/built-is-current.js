'use strict';
/**
 * Global setup of the tiers that run the built CLI and svc-api (jest.config.js): refuses a dist/ that is missing or
 * older than src/, which would test yesterday's code. `npm test` builds first; `npm run test:integration` and
 * `test:e2e` do not, so a change to src/ needs `npm run build` before them (`npm run test:unit` needs none).
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');

/** The newest (or oldest) file under `dir` by modification time: [mtimeMs, path]. */
function extreme(dir, pick) {
  let found;
  const walk = (at) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const file = path.join(at, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile()) {
        const time = fs.statSync(file).mtimeMs;
        if (found === undefined || pick(time, found[0])) found = [time, file];
      }
    }
  };
  walk(dir);
  return found;
}

/** Why dist/ cannot be tested as the build of src/ (undefined: it can). */
function staleness(root = ROOT) {
  const dist = path.join(root, 'dist');
  const built = fs.existsSync(dist) ? extreme(dist, (a, b) => a < b) : undefined;
  if (built === undefined) return 'dist/ is missing';
  const changed = extreme(path.join(root, 'src'), (a, b) => a > b);
  if (changed !== undefined && changed[0] > built[0]) {
    return `dist/ is older than src/: ${path.relative(root, changed[1])} changed at ${new Date(changed[0]).toISOString()}, after the build began (${new Date(built[0]).toISOString()})`;
  }
  return undefined;
}

module.exports = async function builtIsCurrent() {
  const why = staleness();
  if (why !== undefined) throw new Error(`${why}; run \`npm run build\` first (npm test does), since these tests run the built CLI and svc-api`);
};
module.exports.staleness = staleness;
