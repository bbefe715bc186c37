// Runs the npm package `wavefunctioncollapse` (kchapelier's JavaScript port of mxgmn's WFC; installed by
// bench/wfc_refs.py) on an mxgmn simple-tiled set, once per seed; prints one line per seed:
// "seed solved seconds" (model construction and generate(), the process start and the input left out).
//
// Input (JSON): {"tiles": [{"name", "symmetry", "weight"}], "neighbors": [{"left", "right"}]}, the set's own
// names ("corner 1"); every tile gets a blank one-pixel bitmap (the solver never looks at pixels).
// Usage: node wfc_reference.mjs MODULE_DIR PROBLEM.json WIDTH HEIGHT PERIODIC(0|1) SEEDS BUDGET_SECONDS

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const [moduleDir, problemPath, width, height, periodic, seeds, budget] = process.argv.slice(2);
const require = createRequire(join(moduleDir, "package.json"));
const wfc = require("wavefunctioncollapse");
const problem = JSON.parse(readFileSync(problemPath, "utf8"));
const blank = [0, 0, 0, 255];
const data = {
  tilesize: 1,
  tiles: problem.tiles.map((t) => ({ name: t.name, symmetry: t.symmetry, weight: t.weight, bitmap: blank })),
  neighbors: problem.neighbors,
};

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const begin = process.hrtime.bigint();
for (let seed = 0; seed < Number(seeds); seed++) {
  if (Number(process.hrtime.bigint() - begin) / 1e9 > Number(budget)) break;
  const start = process.hrtime.bigint();
  const model = new wfc.SimpleTiledModel(data, null, Number(width), Number(height), periodic === "1");
  const solved = model.generate(mulberry32(seed + 1));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(`${seed} ${solved ? 1 : 0} ${seconds.toFixed(9)}`);
}
