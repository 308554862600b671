/* The live board: a position of the digital scoresheet (the API's LiveState) drawn as SVG,
 * with the geometry and classes of the record viewer (web/board.py, web/picture.py,
 * viewer.css), so that a recorded game looks like a replayed one.
 *
 * The API's ``board`` is a games.board.BoardPicture as JSON: every point in the numbering
 * of the seat ``view``; the point numbered n always sits in the same place (1–12 bottom row
 * from right to left, 13–24 top row from left to right). Turning the board to the other
 * seat renumbers every point: bräde's half turn p ↦ ((p + 11) mod 24) + 1 (rules.md R1),
 * backgammon's p ↦ 25 − p (its sides go in opposite directions).
 *
 * Steps in the API are in the mover's own numbering (scoresheets/README.md): bräde's
 * 1–24 with the bar 0 and off 25, backgammon's .mat numbering with the bar 25 and off 0.
 *
 * window.LiveBoard exposes the model (fromPicture, flip, apply, toView, toOwn…) and draw();
 * the public pages' followers (data-live-follow) are started here: they poll the live state
 * with If-None-Match every few seconds and redraw when it changed.
 */
(function () {
  "use strict";

  var NS = "http://www.w3.org/2000/svg";
  var PW = 40, R = 17, LBL = 24, HALF = 176, MID = 60, TRI = 160;
  var DIE = 30, MAX_SHOWN = 5;
  var TOP = LBL, BOTTOM = LBL + 2 * HALF + MID, MIDY = TOP + HALF + MID / 2, HEIGHT = BOTTOM + LBL;
  /* The frame around the points: the viewer's (trays 52 wide, the bar 44), or a narrow
     one (``ui.narrow``: a phone's scoresheet) where the points take the width — at 360 px
     a point is then 27 px wide, not 23 — with slim trays at the screen's edges, a slim
     bar (its checkers and the cube drawn smaller) and the borne-off slabs narrower. */
  var FRAMES = {
    wide: { tray: 52, bar: 44, cube: 34, barR: R, pad: 8 },
    narrow: { tray: 16, bar: 26, cube: 24, barR: 12, pad: 3 }
  };
  var TW, BW, CUBE, BAR_R, PAD, WIDTH, BAR_X;
  function frame(narrow) {
    var f = narrow ? FRAMES.narrow : FRAMES.wide;
    TW = f.tray; BW = f.bar; CUBE = f.cube; BAR_R = f.barR; PAD = f.pad;
    WIDTH = 2 * TW + 12 * PW + BW;
    BAR_X = TW + 6 * PW + BW / 2;
  }
  frame(false);
  var CLS = ["w", "b"];
  var PIPS = {
    1: [[0.5, 0.5]],
    2: [[0.25, 0.25], [0.75, 0.75]],
    3: [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]],
    4: [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]],
    5: [[0.25, 0.25], [0.75, 0.25], [0.5, 0.5], [0.25, 0.75], [0.75, 0.75]],
    6: [[0.25, 0.22], [0.75, 0.22], [0.25, 0.5], [0.75, 0.5], [0.25, 0.78], [0.75, 0.78]]
  };

  // --- the model ---------------------------------------------------------------------

  function isBg(layout) { return layout === "backgammon"; }
  function other(layout, n) { return isBg(layout) ? 25 - n : ((n + 11) % 24) + 1; }
  function barOf(layout) { return isBg(layout) ? 25 : 0; }
  function offOf(layout) { return isBg(layout) ? 0 : 25; }

  /* A position: {layout, view, pts: [null, {side, count}, ... 24], bar: [a, b], off: [a, b],
     cube, dice, mover, sources, targets} (points in the view's numbering). */
  function fromPicture(pic) {
    var pos = {
      layout: pic.layout || "brade", view: pic.view || 0, pts: [], bar: [0, 0], off: [0, 0],
      cube: pic.cube || null, dice: pic.dice || [], mover: pic.mover == null ? null : pic.mover,
      sources: pic.sources || [], targets: pic.targets || []
    };
    for (var n = 0; n <= 24; n++) { pos.pts.push(null); }
    (pic.points || pic.stacks || []).forEach(function (s) {
      var side = Array.isArray(s) ? s[0] : s.side;
      var point = Array.isArray(s) ? s[1] : s.point;
      var count = Array.isArray(s) ? s[2] : s.count;
      if (count > 0) { pos.pts[point] = { side: side, count: count }; }
    });
    if (pic.bar) { pos.bar = [pic.bar[0] || 0, pic.bar[1] || 0]; }
    if (pic.off) { pos.off = [pic.off[0] || 0, pic.off[1] || 0]; }
    return pos;
  }

  function copy(pos) {
    var out = Object.assign({}, pos);
    out.pts = pos.pts.map(function (p) { return p ? { side: p.side, count: p.count } : null; });
    out.bar = pos.bar.slice();
    out.off = pos.off.slice();
    return out;
  }

  /* The same position seen from the other seat. */
  function flip(pos) {
    var out = copy(pos);
    out.view = 1 - pos.view;
    for (var n = 1; n <= 24; n++) { out.pts[other(pos.layout, n)] = pos.pts[n] ? { side: pos.pts[n].side, count: pos.pts[n].count } : null; }
    out.sources = (pos.sources || []).map(function (n) { return other(pos.layout, n); });
    out.targets = (pos.targets || []).map(function (n) { return other(pos.layout, n); });
    return out;
  }

  function viewed(pos, view) { return pos.view === view ? pos : flip(pos); }

  /* ``side``'s own point p (1–24) in the numbering of ``pos.view``, and back. */
  function toView(pos, side, p) { return side === pos.view ? p : other(pos.layout, p); }
  function toOwn(pos, side, n) { return side === pos.view ? n : other(pos.layout, n); }

  /* A step [from, to] of ``side`` (own numbering) applied to a copy of ``pos``: a blot on
     the landing point is hit; a band there (bräde's blast, R9) goes to the bar whole. */
  function apply(pos, side, step) {
    var out = copy(pos);
    var from = step[0], to = step[1];
    if (from === barOf(pos.layout)) {
      out.bar[side] = Math.max(0, out.bar[side] - 1);
    } else {
      var src = out.pts[toView(pos, side, from)];
      if (src && src.side === side) {
        src.count -= 1;
        if (!src.count) { out.pts[toView(pos, side, from)] = null; }
      }
    }
    if (to === offOf(pos.layout) || to < 0 || to > 25 || (isBg(pos.layout) ? to <= 0 : to >= 25)) {
      out.off[side] += 1;
      return out;
    }
    var n = toView(pos, side, to);
    var there = out.pts[n];
    if (there && there.side !== side) {
      out.bar[there.side] += there.count;
      there = null;
    }
    out.pts[n] = there ? { side: side, count: there.count + 1 } : { side: side, count: 1 };
    return out;
  }

  function count(pos, side, own) {
    if (own === barOf(pos.layout)) { return pos.bar[side]; }
    var p = pos.pts[toView(pos, side, own)];
    return p && p.side === side ? p.count : 0;
  }

  // --- drawing -----------------------------------------------------------------------

  function colX(c) { return TW + c * PW + (c >= 6 ? BW : 0); }
  function column(n) { return n <= 12 ? 12 - n : n - 13; }
  function slotX(n) { return colX(column(n)); }
  function triangle(n) {
    var x = slotX(n), top = n > 12;
    var base = top ? TOP : BOTTOM, tip = top ? TOP + TRI : BOTTOM - TRI;
    return x + "," + base + " " + (x + PW) + "," + base + " " + (x + PW / 2) + "," + tip;
  }

  function el(name, attrs, text) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text != null) { node.textContent = text; }
    return node;
  }

  function stack(g, side, n, cx, firstY, step, point, radius) {
    var group = el("g", { "class": "stack", "data-side": side, "data-point": point, "data-count": n });
    var shown = Math.min(n, MAX_SHOWN);
    for (var k = 0; k < shown; k++) {
      group.appendChild(el("circle", { "class": "ck " + CLS[side], cx: cx, cy: firstY + k * step, r: radius || R }));
    }
    if (n > MAX_SHOWN) {
      group.appendChild(el("text", { "class": "cnt " + CLS[side], x: cx, y: firstY + (shown - 1) * step + 5 }, String(n)));
    }
    g.appendChild(group);
  }

  /* Where each side's borne-off checkers lie: [x, bottom?]. */
  function trayOf(pos, side) {
    var mine = side === pos.view;
    if (isBg(pos.layout)) { return [WIDTH - TW + PAD, mine]; }
    return [mine ? WIDTH - TW + PAD : PAD, !mine];
  }

  /* Draw ``pos`` into ``svg`` (emptied first). ``ui``: {sources: [viewer points or "bar"],
     targets: [points or "off"], selected, from: [points], to: [points], dice, mover,
     hits: bool (transparent tap areas with data-hit), label, narrow: bool (the narrow
     frame)}. */
  function draw(svg, pos, ui) {
    ui = ui || {};
    frame(!!ui.narrow);
    while (svg.firstChild) { svg.removeChild(svg.firstChild); }
    svg.setAttribute("viewBox", "0 0 " + WIDTH + " " + HEIGHT);
    svg.setAttribute("class", "board live" + (ui.narrow ? " narrow" : ""));
    svg.setAttribute("role", "img");
    if (ui.label) { svg.setAttribute("aria-label", ui.label); }
    var H = BOTTOM - TOP;
    svg.appendChild(el("rect", { "class": "tray", x: 0, y: TOP, width: TW, height: H }));
    svg.appendChild(el("rect", { "class": "tray", x: WIDTH - TW, y: TOP, width: TW, height: H }));
    svg.appendChild(el("rect", { "class": "felt", x: TW, y: TOP, width: 6 * PW, height: H }));
    svg.appendChild(el("rect", { "class": "felt", x: colX(6), y: TOP, width: 6 * PW, height: H }));
    svg.appendChild(el("rect", { "class": "bar", x: TW + 6 * PW, y: TOP, width: BW, height: H }));
    for (var n = 1; n <= 24; n++) {
      var top = n > 12;
      var shade = (column(n) + (top ? 0 : 1)) % 2 === 0 ? "a" : "b";
      svg.appendChild(el("polygon", { "class": "pt " + shade, "data-point": n, points: triangle(n) }));
      svg.appendChild(el("text", { "class": "num", x: slotX(n) + PW / 2, y: top ? TOP - 7 : BOTTOM + 17 }, String(n)));
    }
    var sources = ui.sources || [], targets = ui.targets || [];
    (ui.from || pos.sources || []).forEach(function (p) {
      svg.appendChild(el("polygon", { "class": "hl from", points: triangle(p) }));
    });
    (ui.to || pos.targets || []).forEach(function (p) {
      svg.appendChild(el("polygon", { "class": "hl to", points: triangle(p) }));
    });
    sources.forEach(function (p) {
      if (p !== "bar") { svg.appendChild(el("polygon", { "class": "hl can" + (p === ui.selected ? " sel" : ""), points: triangle(p) })); }
    });
    targets.forEach(function (p) {
      if (p === "off") { return; }
      var x = slotX(p), tp = p > 12;
      svg.appendChild(el("circle", { "class": "dest", cx: x + PW / 2, cy: tp ? TOP + TRI + 10 : BOTTOM - TRI - 10, r: 9 }));
    });
    for (n = 1; n <= 24; n++) {
      var s = pos.pts[n];
      if (!s) { continue; }
      var t = n > 12;
      stack(svg, s.side, s.count, slotX(n) + PW / 2, t ? TOP + R + 1 : BOTTOM - R - 1, t ? 2 * R : -2 * R, String(n));
    }
    [0, 1].forEach(function (side) {
      var c = pos.bar[side];
      if (!c) { return; }
      var upper = (side === pos.view) === isBg(pos.layout);
      stack(svg, side, c, BAR_X, upper ? MIDY - BAR_R - 4 : MIDY + BAR_R + 4, upper ? -2 * BAR_R : 2 * BAR_R, "bar", BAR_R);
    });
    if (sources.indexOf("bar") >= 0) {
      svg.appendChild(el("rect", { "class": "hl can-bar" + (ui.selected === "bar" ? " sel" : ""), x: TW + 6 * PW + 2, y: TOP + 2, width: BW - 4, height: H - 4, rx: 6 }));
    }
    [0, 1].forEach(function (side) {
      var c = pos.off[side], tray = trayOf(pos, side), x = tray[0], bottom = tray[1];
      var g = el("g", { "class": "off", "data-side": side, "data-count": c });
      for (var k = 0; k < c; k++) {
        g.appendChild(el("rect", { "class": "slab " + CLS[side], x: x, y: bottom ? BOTTOM - 15 - k * 11 : TOP + 6 + k * 11, width: TW - 2 * PAD, height: 9 }));
      }
      if (c) { g.appendChild(el("text", { "class": "offn", x: x + (TW - 2 * PAD) / 2, y: bottom ? MIDY + 20 : MIDY - 8 }, String(c))); }
      svg.appendChild(g);
    });
    if (targets.indexOf("off") >= 0 && ui.mover != null) {
      var tr = trayOf(pos, ui.mover);
      svg.appendChild(el("rect", { "class": "hl can-off", x: tr[0] - PAD + 2, y: tr[1] ? MIDY : TOP + 2, width: TW - 4, height: H / 2 - 2, rx: Math.min(6, PAD + 1) }));
    }
    var dice = ui.dice || pos.dice || [];
    var mover = ui.mover != null ? ui.mover : pos.mover;
    if (dice.length && mover != null) {
      var centre = mover === pos.view ? colX(6) + 3 * PW : TW + 3 * PW;
      var total = dice.length * DIE + (dice.length - 1) * 10, x0 = centre - total / 2, y0 = MIDY - DIE / 2;
      var dg = el("g", { "class": "dice", "data-dice": dice.join("-") });
      dice.forEach(function (d, i) {
        var x = x0 + i * (DIE + 10);
        dg.appendChild(el("rect", { "class": "die " + CLS[mover], x: x, y: y0, width: DIE, height: DIE, rx: 5 }));
        (PIPS[d] || []).forEach(function (f) {
          dg.appendChild(el("circle", { "class": "pip " + CLS[mover], cx: x + f[0] * DIE, cy: y0 + f[1] * DIE, r: 3 }));
        });
      });
      svg.appendChild(dg);
    }
    var cube = pos.cube;
    if (cube) {
      var cx, cy, shown, state;
      if (cube.offered_by != null) {
        cx = cube.offered_by === pos.view ? BAR_X + BW / 2 + 8 : BAR_X - BW / 2 - 8 - CUBE;
        cy = MIDY - CUBE / 2; shown = cube.value * 2; state = "offered";
      } else {
        cx = BAR_X - CUBE / 2;
        if (cube.owner == null) { cy = MIDY - CUBE / 2; state = "centred"; } else if (cube.owner === pos.view) { cy = BOTTOM - CUBE - 4; state = "owned"; } else { cy = TOP + 4; state = "owned"; }
        shown = cube.owner == null && cube.value === 1 ? 64 : cube.value;
      }
      var cg = el("g", { "class": "cube " + state, "data-value": cube.value, "data-owner": cube.owner == null ? "" : cube.owner });
      cg.appendChild(el("rect", { "class": "cube-face", x: cx, y: cy, width: CUBE, height: CUBE, rx: 5 }));
      cg.appendChild(el("text", { "class": "cube-value", x: cx + CUBE / 2, y: cy + CUBE / 2 + 6 }, String(shown)));
      svg.appendChild(cg);
    }
    if (ui.hits) {
      // Tap areas: a whole half-column per point (easier to hit than the triangle), the bar
      // and the trays.
      for (n = 1; n <= 24; n++) {
        svg.appendChild(el("rect", { "class": "hit", "data-hit": n, x: slotX(n), y: n > 12 ? 0 : MIDY, width: PW, height: n > 12 ? MIDY : HEIGHT - MIDY }));
      }
      svg.appendChild(el("rect", { "class": "hit", "data-hit": "bar", x: TW + 6 * PW, y: 0, width: BW, height: HEIGHT }));
      svg.appendChild(el("rect", { "class": "hit", "data-hit": "off", x: 0, y: 0, width: TW, height: HEIGHT }));
      svg.appendChild(el("rect", { "class": "hit", "data-hit": "off", x: WIDTH - TW, y: 0, width: TW, height: HEIGHT }));
    }
  }

  // --- following a game (match page, tournament's boards) ----------------------------

  function words(root) {
    var node = document.getElementById(root.dataset.words || "live-words");
    return node ? JSON.parse(node.textContent) : {};
  }

  function fill(text, values) {
    return String(text || "").replace(/%\((\w+)\)s/g, function (_, k) { return values[k] == null ? "" : values[k]; });
  }

  /* How a game was won, from the outcome's record words ("White jan", "Anna wins: drop,
     cube 2"): the game's own words (jan, hemspel; drop, gammon) without the record's
     English "White"/"… wins:" (the page names the winner itself). */
  function how(outcome) {
    return String(outcome.words || "").replace(/^(White|Black)\s+/, "").replace(/^.*?\bwins?:\s*/, "");
  }

  /* A play's record words ("bar/4 1/7*", "6/off") with the bar and "off" in the reader's
     words; "-" or nothing (the roll forfeited) as "no move possible". */
  function playWords(play, w) {
    play = String(play || "").trim();
    if (!play || play === "-") { return w.no_move; }
    return play.replace(/\b(bar|off)\b/gi, function (p) { return w.places[p.toLowerCase()]; });
  }

  /* A turn of the live state (side, action, dice, the record's text) in the reader's words,
     as web.turn_words writes a record's turns: the mover by name (not W/B), the bar and
     "off" in the page's language. ``state``: the names, the layout and the starter; ``w``:
     the server's words for turns (follow words' ``turn``). The record keeps its own. */
  function turnWords(turn, state, w) {
    var text = turn.text || "";
    if (!w) { return text; }
    var names = (state && state.players) || ["", ""];
    var who = turn.side != null ? names[turn.side] : "";
    var dice = turn.dice || [];
    if (turn.action === "play") {
      var line = /^(?:[WB]\s+)?([^:]*):(.*)$/.exec(text);   // "W 6-4: 1/7", "31: 8/5 6/5"
      return line ? fill(w.play, { name: who, dice: line[1].trim(), play: playWords(line[2], w) }) : text;
    }
    if (turn.action === "start") {
      if (dice.length === 2) {   // player 0's die first
        var bg = isBg(((state && state.board) || {}).layout);
        return fill(bg ? w.opening : w.tek, { one: names[0], a: dice[0], two: names[1], b: dice[1] });
      }
      return fill(w.starts, { name: names[turn.starter != null ? turn.starter : state && state.starter] });
    }
    if (turn.action === "roll" && dice.length) { return fill(w.rolls, { name: who, dice: dice.join("-") }); }
    var value = turn.action === "double" ? /(\d+)\s*$/.exec(text) : null;   // "Doubles => 2"
    if (value) { return fill(w.doubles, { name: who, value: value[1] }); }
    return w.actions[turn.action] ? fill(w.actions[turn.action], { name: who }) : text;
  }

  /* One line under a board: who is to move (or the outcome) and the last turn. */
  function caption(state, w) {
    if (!state) { return ""; }
    var names = state.players || ["", ""];
    if (state.outcome && state.outcome.flag != null) {
      return fill(w.flag_fell, { name: names[state.outcome.flag] });
    }
    if (state.outcome) {
      return fill(w.won, { name: names[state.outcome.winner], how: how(state.outcome) });
    }
    var last = state.turns && state.turns.length ? state.turns[state.turns.length - 1] : null;
    var line = fill(w.to_move, { name: names[state.to_move] });
    if (last && last.text) { line += " · " + fill(w.last, { text: turnWords(last, state, w.turn) }); }
    return line;
  }

  function follow(root) {
    var url = root.dataset.liveFollow;
    var every = (parseInt(root.dataset.every, 10) || 3) * 1000;
    var svg = root.querySelector("svg");
    var text = root.querySelector(".live-caption");
    var w = words(root);
    var etag = null, timer = null, idle = false, busy = false, again = false;
    // the clock (clock.js): the running one counted from the server's ``since``
    var clockBox = root.querySelector(".live-clock");
    var shown = null;
    function tick() {
      if (clockBox && window.SheetClock && shown) {
        var c = shown.clock;
        window.SheetClock.draw(clockBox, c, shown.players, c && c.since ? Date.now() - c.since : 0);
      }
    }
    if (clockBox) { window.setInterval(tick, 500); }
    function show(state) {
      shown = state;
      tick();
      root.hidden = false;
      var pos = fromPicture(state.board || {});
      if (root.dataset.view === "flip") { pos = flip(pos); }
      draw(svg, pos, { label: w.board || "" });
      if (text) { text.textContent = caption(state, w); }
      root.dataset.seq = state.seq;
      root.dataset.status = state.status;
    }
    function poll() {
      busy = true;
      var headers = { Accept: "application/json" };
      if (etag) { headers["If-None-Match"] = etag; }
      fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" }).then(function (r) {
        if (r.status === 304) { return null; }
        // Nothing recorded (yet): ask again, less often.
        idle = r.status === 404;
        if (idle) { root.hidden = true; etag = null; return null; }
        if (!r.ok) { return null; }
        etag = r.headers.get("ETag");
        return r.json();
      }).then(function (state) {
        if (state) { show(state); }
      }).catch(function () { /* the next poll tries again */ }).then(function () {
        // While the page's stream is healthy (push.js) a change is told when it happens:
        // the poll is only a safety net, once a minute.
        busy = false;
        if (again) { again = false; poll(); return; }
        var pushed = window.BradePush && window.BradePush.healthy(root);
        timer = window.setTimeout(poll, pushed ? window.BradePush.SLOW : document.hidden || idle ? every * 5 : every);
      });
    }
    root.bradePushed = function (data) {
      // the board's answer in the event itself (push.js): shown without asking for it
      if (data && data.body && !busy) {
        var pushed = null;
        try { pushed = JSON.parse(data.body); } catch (e) { pushed = null; }
        if (pushed) {
          etag = data.etag || null;
          idle = false;
          show(pushed);
          if (timer) { window.clearTimeout(timer); }
          timer = window.setTimeout(poll, window.BradePush ? window.BradePush.SLOW : every);
          return;
        }
      }
      if (busy) { again = true; return; }
      if (timer) { window.clearTimeout(timer); }
      poll();
    };
    var first = root.querySelector("script[type='application/json']");
    if (first) {
      var data = JSON.parse(first.textContent);
      if (data) { show(data); }
    }
    if (url) { poll(); }
    root.flip = function () {
      root.dataset.view = root.dataset.view === "flip" ? "" : "flip";
      etag = null;
      if (timer) { window.clearTimeout(timer); }
      poll();
    };
  }

  function start(scope) {
    (scope || document).querySelectorAll("[data-live-follow]").forEach(function (root) {
      if (!root.dataset.started) { root.dataset.started = "1"; follow(root); }
    });
    (scope || document).querySelectorAll("[data-live-static]").forEach(function (root) {
      // A small board of the tournament's list: drawn from the state embedded in it.
      var svg = root.querySelector("svg");
      var data = root.querySelector("script[type='application/json']");
      if (!svg || !data) { return; }
      var state = JSON.parse(data.textContent);
      draw(svg, fromPicture(state.board || {}), { label: root.dataset.label || "" });
    });
  }

  window.LiveBoard = {
    fromPicture: fromPicture, flip: flip, viewed: viewed, apply: apply, copy: copy,
    toView: toView, toOwn: toOwn, barOf: barOf, offOf: offOf, count: count, isBg: isBg,
    draw: draw, caption: caption, fill: fill, how: how, start: start, turnWords: turnWords
  };
  document.addEventListener("DOMContentLoaded", function () { start(document); });
  document.addEventListener("htmx:afterSwap", function (e) { start(e.target); });
}());
