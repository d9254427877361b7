// Reads CSA files with tsshogi (npm), a CSA reader independent of Kisen,
// and prints one JSON line per file: the start position, the moves in USI
// and the terminal special move. Used by TestDownload_CSAReadByTsshogi
// (web/downloads_csa_test.go); KISEN_TSSHOGI_DIR is the folder npm
// installed tsshogi into (.ci/run).
"use strict";
const path = require("node:path");
const fs = require("node:fs");
const { importCSA } = require(path.join(process.env.KISEN_TSSHOGI_DIR, "node_modules", "tsshogi"));

for (const file of process.argv.slice(2)) {
  const name = path.basename(file);
  const rec = importCSA(fs.readFileSync(file, "utf8"));
  if (rec instanceof Error) {
    console.log(JSON.stringify({ file: name, error: rec.message }));
    continue;
  }
  const moves = [];
  let special = "";
  for (const node of rec.moves) {
    const m = node.move;
    if (m && typeof m.usi === "string") {
      moves.push(m.usi);
    } else if (m && m.type && m.type !== "start") {
      special = m.type;
    }
  }
  console.log(JSON.stringify({ file: name, start: rec.initialPosition.sfen, moves, special }));
}
