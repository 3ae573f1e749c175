// bench/peers/world_rot.mjs: rot.js's noise and lighting on node, timed
// beside `map.noise` and `map.light` (bench/peers/world_run.sh,
// bench/peers/README.md).
//
//   node world_rot.mjs ROT_DIR MAPS_DIR NLEVELS [BUDGET_S]
//
// ROT_DIR is a folder where `npm install rot-js` ran (its node_modules holds
// rot-js; nothing of it is in the repository). MAPS_DIR holds what
// world_map.lua exports: level-<s>.txt (an 80x50 cave, map.render's text)
// and lights-<s>.txt ("x y radius" per line, 1-based) for s = 1..NLEVELS.
//
// Timed, process CPU time (process.cpuUsage), after a warm-up of a quarter
// of the budget, in whole passes until BUDGET_S (default 0.3) is spent:
//   grid1, grid4   a 1000x1000 array of rows (arrays of numbers) of
//                  ROT.Noise.Simplex's get at (x / 16, y / 16), x, y from 1 to
//                  1000; four octaves summed as map.noise sums them (each
//                  at twice the frequency, half the weight, over the sum of
//                  the weights; rot.js has no octaves of its own), ms
//   get1, get4     a call of the same in a loop, its value summed: ns
//   light          ROT.Lighting with passes = 1 (direct light only), range
//                  8, ROT.FOV.PreciseShadowcasting (light passes where the
//                  cell is neither '#' nor '+'), the level's 10 lights,
//                  white; its cache reset before each compute (lights that
//                  moved); the levels in turn: µs per compute
//   light_cached   the same without the reset: rot.js keeps each light's
//                  field of view between computes (lights that stay), µs
// Output, one line each: time rot <workload> <value> <passes>.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const [rotDir, mapsDir, nLevels, budgetArg] = process.argv.slice(2);
const require = createRequire(join(rotDir, "package.json"));
const ROT = require("rot-js");
const budget = Number(budgetArg || 0.3);
const SIDE = 1000;

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

let sink = 0;

// Seconds per pass of `pass`, after a warm-up of a quarter of the budget.
function timed(pass) {
  const t0 = cpu();
  while (cpu() - t0 < budget / 4) sink += pass();
  let spent = 0, n = 0;
  while (spent < budget || n < 2) {
    const s = cpu();
    sink += pass();
    spent += cpu() - s;
    n++;
  }
  return [spent / n, n];
}

function say(name, value, passes) {
  console.log(`time rot ${name} ${value.toFixed(4)} ${passes}`);
}

const simplex = new ROT.Noise.Simplex();
const one = (x, y) => simplex.get(x / 16, y / 16);
const four = (x, y) => {
  let sum = 0, f = 1 / 16, w = 1;
  for (let k = 0; k < 4; k++) {
    sum += w * simplex.get(x * f, y * f);
    f *= 2;
    w *= 0.5;
  }
  return sum / 1.875;
};

for (const [name, get, call] of [["grid1", one, "get1"], ["grid4", four, "get4"]]) {
  const [s, n] = timed(() => {
    const rows = new Array(SIDE);
    for (let y = 1; y <= SIDE; y++) {
      const row = new Array(SIDE);
      for (let x = 1; x <= SIDE; x++) row[x - 1] = get(x, y);
      rows[y - 1] = row;
    }
    return rows[SIDE / 2][SIDE / 2];
  });
  say(name, s * 1e3, n);
  const [c, m] = timed(() => {
    let sum = 0;
    for (let y = 1; y <= SIDE; y++) for (let x = 1; x <= SIDE; x++) sum += get(x, y);
    return sum;
  });
  say(call, c * 1e9 / (SIDE * SIDE), m);
}

// The levels and their lights, as world_map.lua exported them.
const levels = [];
for (let s = 1; s <= Number(nLevels); s++) {
  const rows = readFileSync(join(mapsDir, `level-${s}.txt`), "utf8").split("\n").filter((r) => r.length > 0);
  const lights = readFileSync(join(mapsDir, `lights-${s}.txt`), "utf8").split("\n").filter((r) => r.length > 0)
    .map((line) => line.split(" ").map(Number));
  const passes = (x, y) => y >= 0 && y < rows.length && x >= 0 && x < rows[y].length && rows[y][x] !== "#" &&
    rows[y][x] !== "+";
  const lighting = new ROT.Lighting(() => 0, { passes: 1, range: 8 });
  lighting.setFOV(new ROT.FOV.PreciseShadowcasting(passes));
  for (const [x, y, r] of lights) {
    if (r !== 8) throw new Error("world_rot: every light's radius is 8");
    lighting.setLight(x - 1, y - 1, [255, 255, 255]);
  }
  levels.push(lighting);
}

for (const [name, reset] of [["light", true], ["light_cached", false]]) {
  let i = 0;
  const batch = levels.length;
  const [s, n] = timed(() => {
    let lit = 0;
    for (let k = 0; k < batch; k++) {
      const lighting = levels[i++ % levels.length];
      if (reset) lighting.reset();
      lighting.compute(() => { lit++; });
    }
    return lit;
  });
  say(name, s * 1e6 / batch, n * batch);
}
if (sink === 42) console.log("");
