// Reads KIF and CSA files with tsshogi (npm), a reader independent of
// Kisen, and prints one JSON line per file: the moves in USI, the terminal
// special move, the side to move when it was written, and the header as
// tsshogi understands it, and the special move tsshogi's CSA writer gives
// the ending. Used by TestDownload_OfficialResultReadByTsshogi
// (web/downloads_official_test.go); KISEN_TSSHOGI_DIR is the folder npm
// installed tsshogi into (.ci/run).
"use strict";
const path = require("node:path");
const fs = require("node:fs");
const ts = require(path.join(process.env.KISEN_TSSHOGI_DIR, "node_modules", "tsshogi"));

for (const file of process.argv.slice(2)) {
  const name = path.basename(file);
  const text = fs.readFileSync(file, "utf8");
  const rec = name.endsWith(".csa") ? ts.importCSA(text) : ts.importKIF(text);
  if (rec instanceof Error) {
    console.log(JSON.stringify({ file: name, error: rec.message }));
    continue;
  }
  const moves = [];
  let special = "";
  let toMove = "";
  for (const node of rec.moves) {
    const m = node.move;
    if (m && typeof m.usi === "string") {
      moves.push(m.usi);
    } else if (m && m.type && m.type !== "start") {
      special = m.type;
      toMove = node.nextColor;
    }
  }
  const meta = {};
  for (const key of ["blackName", "whiteName", "tournament", "title", "startDatetime", "timeLimit", "byoyomi"]) {
    const v = rec.metadata.getStandardMetadata(key);
    if (v !== undefined) meta[key] = v;
  }
  // The special move tsshogi's own CSA writer gives the same ending.
  const csaSpecial = ts.exportCSA(rec, {}).split("\n").filter((l) => l.startsWith("%")).join(",");
  console.log(JSON.stringify({ file: name, moves, special, toMove, meta, csaSpecial }));
}
