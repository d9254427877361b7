// The fold of names and readings for the browser: store.FoldName in Go
// (store/name_fold.go), so the desk's search box and the public pages'
// name filters match what the server matches. NFKC, spaces and the 中黒
// dropped, katakana to hiragana, lower case, and the same 異体字 table
// (TestFoldJS_TableIsStoreFoldName compares the two; a browser test runs
// both over the same names). No inline script anywhere (CSP script-src
// 'self').
(function () {
  "use strict";
  var variants = {
    "髙": "高", // はしご高
    "﨑": "崎", // たつさき (U+FA11)
    "嵜": "崎",
    "𥔎": "崎",
    "邊": "辺",
    "邉": "辺",
    "齋": "斎", // the old form of 斎, not of 斉
    "齊": "斉", // the old form of 斉: 齊藤 is 斉藤, never 斎藤
    "澤": "沢",
    "濱": "浜",
    "廣": "広",
    "櫻": "桜",
    "國": "国",
    "𠮷": "吉", // つちよし
    "德": "徳",
    "惠": "恵",
    "眞": "真",
    "實": "実",
    "曾": "曽",
    "冨": "富"
  };
  window.kisenFold = function (s) {
    s = String(s || "").normalize("NFKC");
    var out = "";
    for (var ch of s) {
      if (/\s/.test(ch) || ch === "\u30fb" || ch === "\uff65") {
        continue;
      }
      var c = ch.codePointAt(0);
      if ((c >= 0x30a1 && c <= 0x30f6) || c === 0x30fd || c === 0x30fe) {
        ch = String.fromCodePoint(c - 0x60);
      }
      if (Object.prototype.hasOwnProperty.call(variants, ch)) {
        ch = variants[ch];
      }
      out += ch.toLowerCase();
    }
    return out;
  };
})();
