/* The digital scoresheet: a game recorded turn by turn at the table (/matches/N/record/).
 *
 * A turn: the dice (two taps on six die buttons, or the site's roll), then the checkers —
 * tap a checker and its destination, or tap a destination only one checker can reach; a
 * checker may go several steps in one tap. Only the steps of the engine's legal plays for
 * those dice are offered (``legal`` of the live state, keyed "6-4"; "3" for one die, R13);
 * the steps may be entered in any order, and the confirmed turn is sent as the legal play
 * they make, in the engine's order. A forced turn (one legal play) is played and confirmed
 * with one tap ("Spela"). Undo takes back the last tap's steps, then the dice. The
 * checkers that may move are marked as soon as the dice are known (tapped in, rolled by
 * the site, or kept through a reload); a tap that does nothing says why in a polite status
 * line under the board (#sheet-why). The dice and steps of the turn being entered are kept
 * in localStorage under the game and seq they were entered for, so a reload resumes them;
 * they go once the turn is confirmed or the game moved on without it.
 *
 * Nothing lost. Every confirmed action is queued in localStorage with its sequence number
 * (the previous state's seq + 1) and this device's id, then POSTed in order; a reply lost
 * on the way is harmless (the same seq and content again is stored once). Offline
 * (decided, as scoresheets/README.md says): the page keeps ``legal`` for the next turn
 * only, so the first turn is checked against it and later turns are recorded unchecked
 * (their steps constrained only by the dice distances), shown as "not yet checked", and
 * sent in order when the network is back. Such a turn is confirmed once no unused die can
 * move a checker by the rules every rule set shares (``canStepOn``, looser than the engine,
 * never stricter): so "no move possible" is confirmed only where there is truly none. The
 * server checks each; the first it refuses stops the queue: the page shows the engine's
 * message and lets the players correct that turn (the later queued turns are dropped once
 * they say so). Rolled dice need the network.
 * An illegal move (backgammon, the Danish federation's rules, "Ugyldige slag og ulovlige
 * ryk": the opponent accepts it as played or has it corrected). Where the state's
 * ``rules.accept_illegal`` says so, "Played otherwise?" lets the players enter the move as
 * it was played on the board: any checker of the mover to any point its checkers can stand
 * on (not one held by two or more opposing checkers) or off — what the replay of an
 * uploaded record can carry out. The server refuses an illegal one with its reason and
 * ``error.acceptable``: the page says why it is illegal and asks the opponent to
 * accept it as played (the same turn sent again with ``accept_illegal``: it stands, the
 * turn list marks it) or to have it corrected (the mover enters the turn again with the
 * same dice). A refusal that is not acceptable (a checker that is not there) can only be
 * corrected.
 * The clock (a clocked tournament; scoresheets/clock.py has the decisions): the page runs
 * it on this device's monotonic time (performance.now()). Whose clock runs follows the
 * game as the page sees it (the player to act; after a double, the doubled player); each
 * confirmed action that hands the clock to the other player stops the mover's and sends
 * with the turn how long it ran (``used``). Offline it runs on, the turns queued with
 * their times; the server's answer corrects the remaining times once they are stored.
 * A turn that waited here before it was sent (offline, behind another turn, or sent
 * again) says so (``queued``): the server holds the others' times to the time it saw
 * between their arrivals, give or take a few seconds.
 * The running clock's start is kept in localStorage (wall time, the only time a reload
 * keeps), else taken from the server's record of when the clock started (``since``), so
 * a reload mid-turn keeps the time. At 0 the page posts the flag fall itself.
 * Another device that recorded the same turn first: the page shows the conflict and the
 * game as the server has it. A reload (or a second device) resumes from the server's state
 * and this device's queue.
 *
 * Words come from the page (#sheet-words, translated by the server).
 */
(function () {
  "use strict";

  var LB = window.LiveBoard;
  var root = document.getElementById("scoresheet");
  if (!root || !LB) { return; }
  var W = JSON.parse(document.getElementById("sheet-words").textContent);
  var api = root.dataset.api;
  var turnsUrl = root.dataset.turns;
  var csrf = root.dataset.csrf;
  var KEY = "scoresheet:" + root.dataset.match;
  var svg = root.querySelector("svg.board");
  var controls = document.getElementById("sheet-controls");
  var banner = document.getElementById("sheet-banner");
  var netLine = document.getElementById("sheet-net");
  var heading = document.getElementById("sheet-turn");
  var meta = document.getElementById("sheet-meta");
  var turnList = document.getElementById("sheet-turns");
  var flipButton = document.getElementById("sheet-flip");
  var whyLine = document.getElementById("sheet-why");
  var clockBox = document.getElementById("sheet-clock");
  var CK = window.SheetClock;
  var CLOCK_KEY = KEY + ":clock";
  // A phone's width (scoresheet.css draws the board edge to edge there): the board's narrow
  // frame, so that the points take the width.
  var phone = window.matchMedia("(max-width: 40rem)");

  var S = null;          // the server's last LiveState
  var etag = null;
  var queue = [];        // actions confirmed here and not yet stored: {seq, game, action, ...}
  var blocked = null;    // the refusal that stopped the queue: {item, message}
  var conflict = null;   // {dropped: [texts]}
  var online = navigator.onLine !== false;
  var sending = false;
  var flipped = false;
  var G = null;          // the game as this device sees it: S and the queue after it
  var T = fresh();       // the turn being entered
  var taps = 0;          // taps since the dice were complete (read by the browser tests)
  // The clock as this device runs it: {game, seq, running, remaining, delay, flag,
  // startWall (Date.now() when the running clock started), startMono (performance.now())}
  var C = null;

  // ``seq``, ``game``: the state the turn's dice were entered for (null: none entered yet).
  // ``free``: the move is entered as it was played, legal or not (see the top).
  function fresh() { return { dice: [], steps: [], groups: [], sel: null, single: false, tek: [null, null], resigning: false, seq: null, game: null, free: false }; }
  function fill(text, values) { return LB.fill(text, values || {}); }

  var device = localStorage.getItem("scoresheet:device");
  if (!device) {
    device = (window.crypto && crypto.randomUUID) ? crypto.randomUUID() : "d-" + Date.now() + "-" + Math.random().toString(16).slice(2);
    localStorage.setItem("scoresheet:device", device);
  }

  function save() {
    try { localStorage.setItem(KEY, JSON.stringify({ state: S, queue: queue, flipped: flipped })); } catch (e) { /* full */ }
  }
  function load() {
    try {
      var data = JSON.parse(localStorage.getItem(KEY) || "null");
      if (data) { S = data.state || null; queue = data.queue || []; flipped = !!data.flipped; }
      // a turn still queued from before the reload waited on this device (``queued``)
      queue.forEach(function (q) { q.queued = true; });
    } catch (e) { queue = []; }
  }

  // --- the game as this device sees it -------------------------------------------------

  function clone(x) { return JSON.parse(JSON.stringify(x)); }

  function derive() {
    if (!S) { G = null; return; }
    var pos = LB.viewed(LB.fromPicture(S.board || {}), 0);
    G = {
      seq: S.seq, game: S.game_number, phase: S.phase, to_move: S.to_move, pos: pos,
      legal: S.legal, dice: S.dice,
      cube: S.cube ? Object.assign({}, (S.board && S.board.cube) || {}, S.cube) : null, outcome: S.outcome,
      mode: S.dice_mode, players: S.players || ["", ""], checked: true, status: S.status
    };
    // Turns queued for an earlier game cannot be sent any more (their seq would count in
    // this game): shown as a conflict. Turns at or below the server's seq are still sent:
    // stored already, the server answers 200; another device's turn there, a conflict.
    var old = queue.filter(function (item) { return item.game !== S.game_number; });
    if (old.length) {
      conflict = { dropped: old.map(function (q) { return q.text; }) };
      queue = queue.filter(function (item) { return item.game === S.game_number; });
    }
    queue.forEach(function (item) { if (item.seq > G.seq) { advance(G, item); } });
  }

  /* The local effect of a queued action (the server's effect, as far as the page can tell
     without the engine; the server's state replaces it once the action is stored). */
  function advance(g, item) {
    g.seq = item.seq;
    var side = g.to_move;
    if (item.action === "start") {
      var starter = item.starter;
      if (starter == null && item.dice) {
        var bg = LB.isBg(g.pos.layout);
        starter = (item.dice[0] < item.dice[1]) === !bg ? 0 : 1;  // bräde: the lower die starts (R2); backgammon: the higher
        if (bg) { g.phase = "move"; g.to_move = starter; g.dice = item.dice.slice().sort().reverse(); g.legal = null; return; }
      }
      g.to_move = starter; g.phase = "roll"; g.legal = null;
    } else if (item.action === "play") {
      (item.steps || []).forEach(function (s) { g.pos = LB.apply(g.pos, side, s); });
      g.to_move = 1 - side; g.phase = g.pos.off[side] >= 15 ? "over" : "roll";
      g.dice = null;
    } else if (item.action === "double") {
      if (g.cube) { g.cube.offered_by = side; }
      g.pos.cube = g.cube;
      g.to_move = 1 - side; g.phase = "cube";
    } else if (item.action === "take") {
      if (g.cube) { g.cube.value *= 2; g.cube.owner = side; g.cube.offered_by = null; }
      g.pos.cube = g.cube;
      g.to_move = 1 - side; g.phase = "roll";
    } else if (item.action === "drop" || item.action === "resign" || item.action === "flag") {
      g.phase = "over";
    }
    g.legal = null;
    g.checked = false;
  }

  // --- the clock (see the top) ------------------------------------------------------------

  function runnerOf(g) {
    return g && (g.phase === "roll" || g.phase === "move" || g.phase === "cube") && (g.to_move === 0 || g.to_move === 1) ? g.to_move : null;
  }
  function clockSave() {
    try { localStorage.setItem(CLOCK_KEY, JSON.stringify(C ? { game: C.game, seq: C.seq, running: C.running, remaining: C.remaining, delay: C.delay, flag: C.flag, startWall: C.startWall } : null)); } catch (e) { /* full */ }
  }
  function clockKept() {
    try { return JSON.parse(localStorage.getItem(CLOCK_KEY) || "null"); } catch (e) { return null; }
  }
  function clockFrom(server, kept) {
    var c = { game: S.game_number, seq: server.seq, running: server.running, remaining: server.remaining.slice(), delay: server.delay, flag: server.flag };
    var now = Date.now();
    // this device's own start of the running clock, else the server's arrival time
    var start = kept && kept.game === c.game && kept.seq === c.seq && kept.running === c.running ? kept.startWall : (server.since || now);
    c.startWall = Math.min(start, now);
    c.startMono = performance.now() - (now - c.startWall);
    return c;
  }
  function clockSync() {
    var server = S && S.clock;
    if (!server) { C = null; return; }
    var same = C && C.game === S.game_number && C.seq === server.seq && C.running === server.running;
    if (!queue.length) {
      if (same) { C.remaining = server.remaining.slice(); C.flag = server.flag; }  // the server's correction
      else { C = clockFrom(server, C || clockKept()); }
    } else if (!C || C.game !== S.game_number || C.seq < server.seq) {
      var kept = clockKept();
      C = kept && kept.game === S.game_number && kept.seq >= server.seq ? Object.assign(kept, { startMono: performance.now() - (Date.now() - kept.startWall) }) : clockFrom(server, kept);
    }
    clockSave();
  }
  function clockElapsed() { return C ? performance.now() - C.startMono : 0; }
  /* A confirmed action: the running clock stops if the clock goes to the other player. */
  function clockPress(item) {
    if (!C || !G) { return; }
    if (C.running != null) { item.used = Math.max(0, Math.round(clockElapsed())); }
    var after = null;
    if (item.action === "flag") {
      C.remaining[C.running] = 0; C.flag = C.running;
    } else {
      var g = clone(G);
      advance(g, item);
      after = runnerOf(g);
      if (after === C.running) { delete item.used; return; }
      if (C.running != null) { C.remaining[C.running] = Math.max(0, C.remaining[C.running] - Math.max(0, item.used - C.delay)); }
    }
    C.running = after;
    C.seq = item.seq;
    C.startMono = performance.now();
    C.startWall = Date.now();
    clockSave();
  }
  function clockDraw() {
    if (!clockBox || !CK) { return; }
    CK.draw(clockBox, C, G ? G.players : null, clockElapsed());
  }
  function clockTick() {
    if (!C || C.running == null || C.flag != null) { return; }
    clockDraw();
    var left = CK.left(C, C.running, clockElapsed());
    var flagged = queue.some(function (q) { return q.action === "flag"; });
    if (left <= 0 && !flagged && !blocked && root.dataset.canRecord === "1" && G && runnerOf(G) === C.running) {
      act({ action: "flag" });
    }
  }

  // --- the steps a turn may take --------------------------------------------------------

  function key(step) { return step[0] + ">" + step[1]; }

  function remaining(play, steps) {
    var left = play.map(key);
    for (var i = 0; i < steps.length; i++) {
      var at = left.indexOf(key(steps[i]));
      if (at < 0) { return null; }
      left.splice(at, 1);
    }
    return play.filter(function () { return true; }).reduce(function (acc, s) {
      var at = left.indexOf(key(s));
      if (at >= 0) { left.splice(at, 1); acc.push(s); }
      return acc;
    }, []);
  }

  function diceKey(dice) {
    if (dice.length === 1) { return String(dice[0]); }
    return Math.max(dice[0], dice[1]) + "-" + Math.min(dice[0], dice[1]);
  }

  function plays() {
    if (!G.legal || T.dice.length === 0) { return null; }
    return G.legal[diceKey(T.dice)] || [];
  }

  function distinctPlays(list) {
    var seen = {}, out = [];
    list.forEach(function (p) {
      var k = p.map(key).sort().join(" ");
      if (!seen[k]) { seen[k] = true; out.push(p); }
    });
    return out;
  }

  function diceList() {
    if (T.dice.length === 2 && T.dice[0] === T.dice[1]) { return [T.dice[0], T.dice[0], T.dice[0], T.dice[0]]; }
    return T.dice.slice();
  }

  /* The next single steps after ``steps`` from the position ``pos``. */
  function candidates(steps, pos) {
    var side = G.to_move, layout = pos.layout, bar = LB.barOf(layout), off = LB.offOf(layout);
    var onBar = pos.bar[side] > 0;
    var out = [];
    var list = plays();
    if (list) {
      var seen = {};
      list.forEach(function (p) {
        var left = remaining(p, steps);
        if (!left) { return; }
        var barSteps = left.some(function (s) { return s[0] === bar; });
        left.forEach(function (s) {
          if (onBar && barSteps && s[0] !== bar) { return; }
          if (LB.count(pos, side, s[0]) < 1 || seen[key(s)]) { return; }
          seen[key(s)] = true;
          out.push(s);
        });
      });
      return out;
    }
    // Unchecked (offline, after the first turn): any step of an unused die's distance.
    var dice = unusedDice(steps);
    var bg = LB.isBg(layout);
    var froms = [];
    if (onBar) { froms.push(bar); } else {
      for (var p = 1; p <= 24; p++) { if (LB.count(pos, side, p) > 0) { froms.push(p); } }
    }
    var done = {};
    dice.forEach(function (d) {
      if (done[d]) { return; }
      done[d] = true;
      froms.forEach(function (from) {
        var to = bg ? from - d : from + d;
        if (bg ? to <= 0 : to >= 25) { to = off; }
        if (to !== off) {
          var there = pos.pts[LB.toView(pos, side, to)];
          if (bg && there && there.side !== side && there.count > 1) { return; }
        }
        out.push([from, to, d]);
      });
    });
    return out;
  }

  /* The dice an unchecked turn has not used yet (its steps carry their die). */
  function unusedDice(steps) {
    var dice = diceList();
    steps.forEach(function (s) {
      var at = dice.indexOf(s[2]);
      if (at >= 0) { dice.splice(at, 1); }
    });
    return dice;
  }

  /* Whether an unchecked turn may play a step more: an unused die that moves some checker
     by the rules every rule set shares (the engine's rules.md; backgammon's are the
     standard ones). Looser than the engine where the page cannot tell (R8's maximum, the
     `board` rule set's limits, which overshooting checker bears off), never stricter, so
     "no step" is sure: the turn is then whole, or nothing can be played at all. */
  function canStepOn(steps, pos) {
    var side = G.to_move, bg = LB.isBg(pos.layout), bar = LB.barOf(pos.layout);
    var dice = unusedDice(steps);
    function at(p) { var x = pos.pts[LB.toView(pos, side, p)]; return x || null; }
    function mine(p) { var x = at(p); return x && x.side === side ? x.count : 0; }
    function theirs(p) { var x = at(p); return x && x.side !== side ? x.count : 0; }
    function home() {      // every checker of the mover in the home quarter
      if (pos.bar[side]) { return false; }
      for (var p = 1; p <= 24; p++) { if (mine(p) && (bg ? p > 6 : p < 19)) { return false; } }
      return true;
    }
    function blast(q, entry) {   // bräde R9: may a band on q be blasted (a superset)?
      if (pos.off[side] >= 14) { return false; }
      var lo = q, hi = q;
      while (lo > 1 && theirs(lo - 1) > 1) { lo -= 1; }
      while (hi < 24 && theirs(hi + 1) > 1) { hi += 1; }
      if (hi - lo + 1 >= 6) { return true; }
      if (!entry) { return false; }
      var open = 0;
      for (var p = 1; p <= 6; p++) { if (!mine(p) && theirs(p) < 2) { open += 1; } }
      return pos.bar[side] > open;
    }
    function lands(from, d) {
      if (bg) {
        var to = from - d;
        if (to <= 0) {
          if (!home()) { return false; }
          if (to === 0) { return true; }
          for (var h = from + 1; h <= 6; h++) { if (mine(h)) { return false; } }
          return true;
        }
        return theirs(to) < 2;
      }
      var q = from + d;
      if (from === bar) { return !mine(q) && (theirs(q) < 2 || blast(q, true)); }
      if (q >= 25) { return home(); }
      if (mine(q) && q <= 11) { return false; }                 // R5: no bands on 2–11
      return theirs(q) < 2 || blast(q, false);
    }
    var froms = [];
    if (pos.bar[side] > 0) { froms.push(bar); } else {
      for (var p = 1; p <= 24; p++) { if (mine(p)) { froms.push(p); } }
    }
    return dice.some(function (d) { return froms.some(function (from) { return lands(from, d); }); });
  }

  function position() {
    var pos = G.pos;
    T.steps.forEach(function (s) { pos = LB.apply(pos, G.to_move, s); });
    return pos;
  }

  /* Where the checker on ``from`` may go with the next steps: {to: [steps]}. */
  function destinations(from) {
    if (T.free) { return freeTargets(position(), from); }
    var out = {};
    function walk(at, path, pos) {
      if (path.length >= 4) { return; }
      // Single steps first: a point one die reaches is reached by that die, not a chain.
      var here = candidates(T.steps.concat(path), pos).filter(function (s) { return s[0] === at; });
      here.forEach(function (s) { if (!out[s[1]]) { out[s[1]] = path.concat([s]); } });
      here.forEach(function (s) {
        if (s[1] !== LB.offOf(pos.layout)) { walk(s[1], path.concat([s]), LB.apply(pos, G.to_move, s)); }
      });
    }
    walk(from, [], position());
    return out;
  }

  /* Entering the move as it was played: the checkers that can be moved at all (the bar's
     too, whatever the rules say) and, from one of them, every point its checker can stand
     on — not one held by two or more opposing checkers — or off. */
  function acceptsIllegal() { return !!(S && S.rules && S.rules.accept_illegal); }
  function freeSources(pos) {
    var side = G.to_move, out = [];
    if (pos.bar[side] > 0) { out.push(LB.barOf(pos.layout)); }
    for (var p = 1; p <= 24; p++) { if (LB.count(pos, side, p) > 0) { out.push(p); } }
    return out;
  }
  function freeTargets(pos, from) {
    var side = G.to_move, out = {};
    for (var p = 1; p <= 24; p++) {
      var there = pos.pts[LB.toView(pos, side, p)];
      if (p === from || (there && there.side !== side && there.count > 1)) { continue; }
      out[p] = [[from, p]];
    }
    out[LB.offOf(pos.layout)] = [[from, LB.offOf(pos.layout)]];
    return out;
  }

  function sources() {
    if (T.free) { return freeSources(position()); }
    var seen = {}, out = [];
    candidates(T.steps, position()).forEach(function (s) {
      if (!seen[s[0]]) { seen[s[0]] = true; out.push(s[0]); }
    });
    return out;
  }

  /* The legal play the entered steps make (null: not a whole play yet). */
  function finished() {
    if (T.free) { return T.steps.map(function (s) { return [s[0], s[1]]; }); }
    var list = plays();
    if (!list) {
      // Unchecked: whole once no die can move a checker any more (every die played, or
      // nothing left that the dice can move); with no step at all, "no move possible".
      if (canStepOn(T.steps, position())) { return null; }
      return T.steps.map(function (s) { return [s[0], s[1]]; });
    }
    if (!list.length) { return T.steps.length ? null : []; }
    var want = T.steps.map(key).sort().join(" ");
    for (var i = 0; i < list.length; i++) {
      if (list[i].map(key).sort().join(" ") === want) { return list[i]; }
    }
    return null;
  }

  // --- drawing and the controls --------------------------------------------------------

  function shown(pos) { return flipped ? LB.flip(pos) : pos; }
  function disp(own) {   // a mover's own point as drawn (or "bar"/"off")
    var pos = G.pos;
    if (own === LB.barOf(pos.layout)) { return "bar"; }
    if (own === LB.offOf(pos.layout)) { return "off"; }
    var n = LB.toView(pos, G.to_move, own);
    return flipped ? (LB.isBg(pos.layout) ? 25 - n : ((n + 11) % 24) + 1) : n;
  }
  function own(hit) {      // a tapped place as the mover's own point
    var pos = G.pos;
    if (hit === "bar") { return LB.barOf(pos.layout); }
    if (hit === "off") { return LB.offOf(pos.layout); }
    var n = parseInt(hit, 10);
    if (flipped) { n = LB.isBg(pos.layout) ? 25 - n : ((n + 11) % 24) + 1; }
    return LB.toOwn(pos, G.to_move, n);
  }

  function pointWord(p) {
    var pos = G.pos;
    if (p === LB.barOf(pos.layout)) { return "bar"; }  // the record's words, in every language
    if (p === LB.offOf(pos.layout)) { return "off"; }
    return String(p);
  }
  function playText(dice, steps) {
    var head = dice && dice.length ? dice.join("-") + ": " : "";
    if (!steps.length) { return head + W.no_move; }
    return head + steps.map(function (s) { return pointWord(s[0]) + "/" + pointWord(s[1]); }).join(" ");
  }

  function drawBoard() {
    if (!G) { return; }
    var moving = (G.phase === "roll" || G.phase === "move") && T.dice.length && diceComplete();
    var ui = { hits: true, label: W.board, narrow: phone.matches };
    if (moving) {
      var src = sources();
      ui.sources = src.map(disp);
      ui.mover = G.to_move;
      ui.dice = T.dice;
      if (T.sel != null) {
        ui.selected = disp(T.sel);
        ui.targets = Object.keys(destinations(T.sel)).map(function (k) { return disp(parseInt(k, 10)); });
      }
      var from = [], to = [];
      T.steps.forEach(function (s) {
        var a = disp(s[0]), b = disp(s[1]);
        if (a !== "bar" && a !== "off") { from.push(a); }
        if (b !== "bar" && b !== "off") { to.push(b); }
      });
      ui.from = from.filter(function (p) { return to.indexOf(p) < 0; });
      ui.to = to;
    } else if (G.dice && G.phase === "move") {
      ui.from = []; ui.to = [];
      ui.dice = G.dice; ui.mover = G.to_move;
    } else if (G.checked && S.board) {
      // The last turn as the server has it (dice, where it left, where it landed), for the
      // players to check against the real board before they throw again.
      var last = LB.viewed(LB.fromPicture(S.board), 0);
      if (flipped) { last = LB.flip(last); }
      ui.from = last.sources; ui.to = last.targets;
      ui.dice = last.dice; ui.mover = last.mover;
    } else {
      ui.from = []; ui.to = [];
    }
    var pos = LB.copy(position());
    pos.cube = G.cube;
    var drawn = shown(pos);
    drawn.dice = []; drawn.sources = []; drawn.targets = [];
    LB.draw(svg, drawn, ui);
    svg.dataset.phase = G.phase;
    svg.dataset.toMove = G.to_move;
  }

  function button(text, cls, onClick, attrs) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = cls || "secondary";
    b.textContent = text;
    Object.keys(attrs || {}).forEach(function (k) { b.setAttribute(k, attrs[k]); });
    b.addEventListener("click", onClick);
    return b;
  }

  function dieButtons(onPick, label, name) {
    var row = document.createElement("div");
    row.className = "die-row";
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", label);
    if (name) { row.dataset.name = name; }
    for (var d = 1; d <= 6; d++) {
      (function (d) {
        var b = button(String(d), "die-button", function () { onPick(d); }, { "data-die": d, "aria-label": fill(W.die, { n: d }) });
        b.innerHTML = dieFace(d);
        row.appendChild(b);
      }(d));
    }
    return row;
  }

  function dieFace(d) {
    var spots = { 1: [[50, 50]], 2: [[27, 27], [73, 73]], 3: [[27, 27], [50, 50], [73, 73]], 4: [[27, 27], [73, 27], [27, 73], [73, 73]], 5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]], 6: [[27, 24], [73, 24], [27, 50], [73, 50], [27, 76], [73, 76]] }[d];
    return '<svg viewBox="0 0 100 100" aria-hidden="true"><rect x="4" y="4" width="92" height="92" rx="16"/>' +
      spots.map(function (s) { return '<circle cx="' + s[0] + '" cy="' + s[1] + '" r="10"/>'; }).join("") + "</svg>";
  }

  function diceNeeded() {
    if (!G.legal) { return T.single ? 1 : 2; }
    var keys = Object.keys(G.legal);
    var pairs = keys.some(function (k) { return k.indexOf("-") >= 0; });
    var singles = keys.some(function (k) { return k.indexOf("-") < 0; });
    if (singles && !pairs) { return 1; }
    return T.single && singles ? 1 : 2;
  }
  function diceComplete() { return T.dice.length > 0 && T.dice.length >= diceNeeded(); }

  function names() { return G.players; }

  // --- the turn being entered, kept through a reload -------------------------------------

  var TURN_KEY = "scoresheet-turn:" + root.dataset.match;

  /* The turn follows the game: dice entered for an earlier state (another device recorded
     that turn, a conflict, the game moved on) are dropped; dice the state holds (the
     site's roll, backgammon's opening roll) are the turn's. Then the turn is kept in
     localStorage under its game and seq, so that a reload before confirming resumes it
     (nothing kept once it is confirmed or superseded). */
  function turnFollow() {
    var entering = G.phase === "roll" || G.phase === "move";
    if (T.seq != null && (T.seq !== G.seq || T.game !== G.game || !entering)) { T = fresh(); tell("", ""); }
    if (G.phase === "move" && G.dice && !T.dice.length) { T.dice = G.dice.slice(); }
    if (T.dice.length && T.seq == null) {
      T.seq = G.seq;
      T.game = G.game;
      if (!T.steps.length && T.sel == null) { autoSelect(); }
    }
    try {
      if (T.seq != null && (T.dice.length || T.steps.length)) {
        localStorage.setItem(TURN_KEY, JSON.stringify({ game: T.game, seq: T.seq, dice: T.dice, steps: T.steps, groups: T.groups, single: T.single, free: T.free }));
      } else {
        localStorage.removeItem(TURN_KEY);
      }
    } catch (e) { /* storage full or refused: the turn is only not kept */ }
  }

  function turnRestore() {
    derive();
    if (!G || !(G.phase === "roll" || G.phase === "move")) { return; }
    var kept = null;
    try { kept = JSON.parse(localStorage.getItem(TURN_KEY) || "null"); } catch (e) { kept = null; }
    if (!kept || kept.game !== G.game || kept.seq !== G.seq || !Array.isArray(kept.dice) || !kept.dice.length) { return; }
    T = fresh();
    T.dice = kept.dice;
    T.steps = Array.isArray(kept.steps) ? kept.steps : [];
    T.groups = Array.isArray(kept.groups) ? kept.groups : [];
    T.single = !!kept.single;
    T.free = !!kept.free && acceptsIllegal();
    T.seq = kept.seq;
    T.game = kept.game;
    autoSelect();
  }

  function render() {
    derive();
    clockSync();
    clockDraw();
    controls.innerHTML = "";
    renderBanner();
    renderNet();
    renderTurns();
    if (G) { svg.removeAttribute("hidden"); } else { svg.setAttribute("hidden", ""); }  // an SVG has no .hidden
    netLine.hidden = !G;
    if (whyLine) { whyLine.hidden = !G; }
    if (!G) {
      heading.textContent = W.not_started;
      if (root.dataset.canRecord === "1") {
        controls.appendChild(button(W.start_entered, "primary", function () { begin("entered"); }, { "data-act": "begin-entered" }));
        if (root.dataset.rolled === "1") { controls.appendChild(button(W.start_rolled, "secondary", function () { begin("rolled"); }, { "data-act": "begin-rolled" })); }
      }
      return;
    }
    turnFollow();
    drawBoard();
    meta.textContent = fill(W.game_meta, { n: S.game_number, a: S.score[0], b: S.score[1] }) +
      (G.cube && G.cube.crawford ? " · " + W.crawford : "");
    root.dataset.phase = G.phase;
    root.dataset.seq = G.seq;
    var who = names()[G.to_move];
    if (G.phase === "over") {
      heading.textContent = S.outcome && !queue.length ? fill(W.won, { name: names()[S.outcome.winner], how: LB.how(S.outcome) }) : W.over_pending;
      if (S.outcome && S.outcome.flag != null && !queue.length) { heading.textContent = fill(W.flag_fell, { name: names()[S.outcome.flag] }); }
      if (!queue.length && S.decided) {
        // No next game: the match is decided (or will be, once the opponent confirms
        // this game's report).
        var waiting = S.entered && S.entered.report && S.entered.game == null;
        note(waiting ? W.decides_when_confirmed : W.match_decided, "decided");
      } else if (!queue.length && S.entered && S.entered.report) {
        // The players report their results: the next game starts once the opponent has
        // confirmed this one (the server says so if not yet).
        note(W.awaiting_confirmation);
        controls.appendChild(button(W.next_game, "primary", function () { begin(G.mode || "entered"); }, { "data-act": "next-game" }));
      } else if (!queue.length) {
        note(W.match_over);
      }
      if (!queue.length && S.entered && S.entered.submission) {
        var view = document.createElement("a");
        view.href = "/records/" + S.entered.submission + "/viewer/";
        view.textContent = W.viewer;
        view.className = "button";
        controls.appendChild(view);
      }
      return;
    }
    if (S.previous && !S.turns.length && !queue.length) {
      note(fill(W.previous, { n: S.previous.game_number, name: names()[S.previous.outcome.winner], how: LB.how(S.previous.outcome) }));
    }
    if (blocked) { heading.textContent = blocked.acceptable ? W.illegal_heading : W.fix_first; return; }
    if (G.phase === "start") { heading.textContent = W.who_starts; renderStart(); return; }
    if (G.phase === "cube") {
      heading.textContent = fill(W.answer_double, { name: who });
      controls.appendChild(button(fill(W.take, { name: who }), "primary", function () { act({ action: "take" }); }, { "data-act": "take" }));
      controls.appendChild(button(fill(W.drop, { name: who }), "secondary", function () { act({ action: "drop" }); }, { "data-act": "drop" }));
      return;
    }
    renderTurn(who);
  }

  function note(text, name) {
    var p = document.createElement("p");
    p.className = "sheet-note";
    if (name) { p.dataset.note = name; }
    p.textContent = text;
    controls.appendChild(p);
  }

  function renderStart() {
    if (G.mode === "rolled") {  // the site throws the tek or the opening roll
      controls.appendChild(button(W.roll_start, "primary", function () {
        if (!online) { say(W.rolled_offline); return; }
        act({ action: "start" });
      }, { "data-act": "roll-start" }));
      return;
    }
    var tek = document.createElement("div");
    tek.className = "tek";
    [0, 1].forEach(function (side) {
      var label = fill(W.tek_die, { name: names()[side] });
      var p = document.createElement("p");
      p.className = "die-label";
      p.textContent = label + (T.tek[side] ? ": " + T.tek[side] : "");
      tek.appendChild(p);
      var row = dieButtons(function (d) {
        T.tek[side] = d;
        if (T.tek[0] && T.tek[1]) {
          if (T.tek[0] === T.tek[1]) { T.tek = [null, null]; say(W.tek_tie); render(); return; }
          var dice = T.tek.slice();
          T = fresh();
          act({ action: "start", dice: dice });
          return;
        }
        render();
      }, label, "tek-" + side);
      if (T.tek[side]) { row.querySelector("[data-die='" + T.tek[side] + "']").classList.add("chosen"); }
      tek.appendChild(row);
    });
    controls.appendChild(tek);
    if (root.dataset.decide === "1") {
      var or = document.createElement("p");
      or.className = "hint";
      or.textContent = W.or_decide;
      controls.appendChild(or);
      var row = document.createElement("div");
      row.className = "actions";
      [0, 1].forEach(function (side) {
        row.appendChild(button(fill(W.starts, { name: names()[side] }), "secondary", function () { act({ action: "start", starter: side }); }, { "data-act": "starter-" + side }));
      });
      controls.appendChild(row);
    }
  }

  function renderTurn(who) {
    var rolled = G.mode === "rolled";
    if (T.resigning) { renderResign(who); return; }
    var complete = diceComplete();
    heading.textContent = complete ? fill(W.move_for, { name: who, dice: T.dice.join("-") }) : fill(W.dice_for, { name: who });
    if (!complete) {
      var pre = document.createElement("div");
      pre.className = "actions pre-roll";
      if (G.phase === "roll" && canDouble()) {
        pre.appendChild(button(fill(W.double, { name: who, value: (G.cube.value || 1) * 2 }), "secondary", function () { act({ action: "double" }); }, { "data-act": "double" }));
      }
      pre.appendChild(button(W.resign, "secondary", resign, { "data-act": "resign" }));
      if (rolled) {
        controls.appendChild(button(W.roll, "primary", function () {
          if (!online) { say(W.rolled_offline); return; }
          act({ action: "roll" });
        }, { "data-act": "roll" }));
        if (G.legal && Object.keys(G.legal).some(function (k) { return k.indexOf("-") < 0; })) {
          controls.appendChild(button(W.roll_one, "secondary", function () {
            if (!online) { say(W.rolled_offline); return; }
            act({ action: "roll", single: true });
          }, { "data-act": "roll-one" }));
        }
      } else {
        var chosen = document.createElement("p");
        chosen.className = "die-label";
        chosen.textContent = T.dice.length ? fill(W.first_die, { n: T.dice[0] }) : W.tap_dice;
        controls.appendChild(chosen);
        controls.appendChild(dieButtons(function (d) {
          tell("", "");
          T.dice.push(d);
          taps = 0;
          autoSelect();
          render();
        }, W.dice_label));
        if (G.legal && Object.keys(G.legal).some(function (k) { return k.indexOf("-") < 0; }) && diceNeeded() === 2) {
          controls.appendChild(button(W.one_die, "secondary", function () { T.single = true; render(); }, { "data-act": "one-die" }));
        }
        if (T.dice.length) { pre.appendChild(button(W.undo, "secondary", undo, { "data-act": "undo" })); }
      }
      controls.appendChild(pre);
      return;
    }
    var list = plays();
    if (G.legal && !G.legal.hasOwnProperty(diceKey(T.dice))) {
      // A roll the rule set does not allow now (R13: one die, or two, as the series says).
      note(W.dice_not_allowed);
      controls.appendChild(button(W.undo, "secondary", undo, { "data-act": "undo" }));
      return;
    }
    var forced = list ? distinctPlays(list) : null;
    var done = finished();
    var row = document.createElement("div");
    row.className = "actions turn-actions";
    if (!T.free && forced && forced.length <= 1 && !T.steps.length) {
      var only = forced.length ? forced[0] : [];
      row.appendChild(button(fill(W.play_forced, { move: playText([], only).replace(/^: /, "") }), "primary big", function () {
        taps += 1;
        confirmPlay(only);
      }, { "data-act": "forced" }));
    } else {
      var ok = button(W.confirm, "primary big", function () {
        taps += 1;
        var play = finished();
        if (play) { confirmPlay(play); }
      }, { "data-act": "confirm" });
      if (!done) { ok.disabled = true; }
      row.appendChild(ok);
    }
    row.appendChild(button(W.undo, "secondary", undo, { "data-act": "undo" }));
    controls.appendChild(row);
    var hint = document.createElement("p");
    hint.className = "hint";
    hint.id = "sheet-hint";
    if (T.steps.length) { hint.textContent = playText(T.dice, T.steps); } else if (T.free) { hint.textContent = W.free_hint; } else if (!G.legal) { hint.textContent = W.unchecked_hint; } else { hint.textContent = W.tap_hint; }
    controls.appendChild(hint);
    if (acceptsIllegal()) {
      // The move as it was played on the board, legal or not (the opponent decides).
      var other = document.createElement("p");
      other.className = "actions as-played";
      if (T.free) {
        other.appendChild(button(W.legal_only, "secondary", function () {
          T.free = false; T.steps = []; T.groups = []; T.sel = null; tell("", ""); autoSelect(); render();
        }, { "data-act": "legal-only" }));
      } else {
        other.appendChild(button(W.as_played, "secondary", function () {
          T.free = true; T.sel = null; tell("", ""); render();
        }, { "data-act": "as-played" }));
      }
      controls.appendChild(other);
    }
    root.dataset.taps = taps;
  }

  function canDouble() {
    var c = G.cube;
    if (c && c.may_double != null && G.checked) { return c.may_double && !T.dice.length; }
    return !!c && !c.crawford && c.offered_by == null && (c.owner == null || c.owner === G.to_move) && !T.dice.length;
  }

  /* Resigning asks once more, on the page: bräde's "yes, NAME resigns" (R14: only at the
     start of the turn, before the dice), backgammon's single, gammon or backgammon. */
  function resign() {
    T.resigning = true;
    render();
  }

  function renderResign(who) {
    var box = document.createElement("div");
    box.className = "resign-box";
    var p = document.createElement("p");
    p.textContent = fill(W.resign_confirm, { name: who });
    box.appendChild(p);
    var row = document.createElement("div");
    row.className = "actions";
    if (G.cube) {
      [[1, W.resign_single], [2, W.resign_gammon], [3, W.resign_backgammon]].forEach(function (v) {
        row.appendChild(button(v[1], "secondary", function () { act({ action: "resign", resign_value: v[0] }); }, { "data-act": "resign-" + v[0] }));
      });
    } else {
      row.appendChild(button(fill(W.resign_yes, { name: who }), "secondary", function () { act({ action: "resign" }); }, { "data-act": "resign-yes" }));
    }
    row.appendChild(button(W.cancel, "primary", function () { T.resigning = false; render(); }, { "data-act": "resign-cancel" }));
    box.appendChild(row);
    controls.appendChild(box);
  }

  function autoSelect() {
    if (!diceComplete()) { return; }
    var src = sources();
    T.sel = src.length === 1 ? src[0] : null;
  }

  function undo() {
    tell("", "");
    if (T.groups.length) {
      var n = T.groups.pop();
      T.steps.splice(T.steps.length - n, n);
      T.sel = null;
      autoSelect();
    } else if (T.dice.length && !(G.mode === "rolled")) {
      T = fresh();
    }
    render();
  }

  function move(path) {
    path.forEach(function (s) { T.steps.push(s); });
    T.groups.push(path.length);
    T.sel = null;
    autoSelect();
    render();
  }

  svg.addEventListener("click", function (event) {
    var hit = event.target.closest("[data-hit]");
    if (!hit || !G || !(G.phase === "roll" || G.phase === "move") || blocked || T.resigning) { return; }
    if (!diceComplete()) { tell("dice-first", W.why_dice_first); return; }
    taps += 1;
    var at = own(hit.dataset.hit);
    tell("", "");
    if (T.sel != null) {
      var dests = destinations(T.sel);
      if (dests[at]) { move(dests[at]); return; }
      if (at === T.sel) { if (T.free) { T.sel = null; } render(); return; }
    }
    if (sources().indexOf(at) >= 0) { T.sel = at; render(); return; }
    var path = direct(at);
    if (path) { move(path); return; }
    var why = whyNot(at);
    tell(why[0], why[1]);
    T.sel = null;
    render();
  });

  /* The status line under the board: why a tap did nothing (``code`` for the tests). */
  function tell(code, text) {
    if (!whyLine) { return; }
    whyLine.dataset.why = code || "";
    whyLine.textContent = text || "";
  }

  /* The dice not played yet by the turn's steps, as words: "a 3" (one die, or the same
     die left more than once), else "5-3". */
  function diceLeft() {
    var dice = diceList();
    T.steps.forEach(function (s) {
      var dist = s.length > 2 ? s[2] : Math.abs(s[1] - s[0]);
      var at = dice.indexOf(dist);
      if (at < 0) {   // a bear-off with a higher die than the distance
        dice.forEach(function (d, i) { if (d > dist && (at < 0 || d < dice[at])) { at = i; } });
      }
      if (at >= 0) { dice.splice(at, 1); }
    });
    if (!dice.length) { dice = diceList(); }
    var same = dice.every(function (d) { return d === dice[0]; });
    return same ? fill(W.die_one, { n: dice[0] }) : dice.join("-");
  }

  /* Why a tap on ``at`` (the mover's own point) neither chose a checker nor moved one:
     [code, words]. */
  function whyNot(at) {
    var pos = position(), side = G.to_move, bar = LB.barOf(pos.layout);
    if (T.free) {
      var there = at !== bar && at !== LB.offOf(pos.layout) ? pos.pts[LB.toView(pos, side, at)] : null;
      var held = there && there.side !== side && there.count > 1;
      return T.sel != null && held ? ["free-held", W.why_free_held] : ["free-first", W.why_free_first];
    }
    if (G.legal && !G.legal.hasOwnProperty(diceKey(T.dice))) { return ["dice-not-allowed", W.dice_not_allowed]; }
    var src = sources();
    if (!src.length) {
      return T.steps.length ? ["all-played", W.why_all_played] : ["no-move", fill(W.why_no_move, { dice: diceLeft() })];
    }
    if (at !== LB.offOf(pos.layout) && LB.count(pos, side, at) > 0) {
      if (at !== bar && pos.bar[side] > 0) { return ["bar-first", W.why_bar_first]; }
      return ["cannot-move", fill(W.why_cannot_move, { dice: diceLeft() })];
    }
    var reach = src.filter(function (from) { return !!destinations(from)[at]; }).length;
    if (reach > 1) { return ["several", W.why_several]; }
    return ["no-reach", fill(W.why_no_reach, { dice: diceLeft() })];
  }

  /* What a tap on ``at`` does when no checker is chosen: a point with checkers that may
     move chooses them (null here); a point only one checker can reach moves it there. */
  function direct(at) {
    if (T.free) { return null; }  // as played: the checker first, then where it went
    var src = sources();
    if (src.indexOf(at) >= 0) { return null; }
    var found = null, many = false;
    src.forEach(function (from) {
      var d = destinations(from)[at];
      if (d) { if (found) { many = true; } else { found = d; } }
    });
    return found && !many ? found : null;
  }

  // --- actions: queue, send, answers ----------------------------------------------------

  function confirmPlay(play) {
    var item = { action: "play", steps: play.map(function (s) { return [s[0], s[1]]; }) };
    if (G.mode !== "rolled") { item.dice = T.dice.length === 2 ? [Math.max(T.dice[0], T.dice[1]), Math.min(T.dice[0], T.dice[1])] : T.dice.slice(); }
    item.text = playText(T.dice, item.steps);
    act(item);
  }

  function act(item) {
    if (!G) { return; }
    item.seq = G.seq + 1;
    item.game = G.game;
    item.side = G.to_move;
    item.checked = !!G.legal || item.action !== "play";
    if (!item.text) { item.text = actionText(item); }
    clockPress(item);
    // it waits on this device when it cannot be sent at once (offline, or behind another
    // turn): the server then takes its clock time as measured here (scoresheets/clock.py)
    item.queued = !online || queue.length > 0;
    queue.push(item);
    tell("", "");
    T = fresh();
    conflict = null;
    save();
    render();
    flush();
  }

  function actionText(item) {
    var w = W.actions[item.action] || item.action;
    return fill(w, { name: names()[item.side], value: item.resign_value || "" });
  }

  function body(item) {
    var out = { seq: item.seq, device: device, action: item.action };
    ["dice", "steps", "starter", "resign_value", "single", "accept_illegal", "used", "queued"].forEach(function (k) { if (item[k] != null) { out[k] = item[k]; } });
    return out;
  }

  function request(method, url, data, headers) {
    // The API answers in the language asked for (English by default): the page's own, so
    // that an engine's refusal reads in the players' language.
    var h = Object.assign({ Accept: "application/json", "Accept-Language": document.documentElement.lang || "sv" }, headers || {});
    if (data) { h["Content-Type"] = "application/json"; h["X-CSRFToken"] = csrf; }
    return fetch(url, { method: method, headers: h, body: data ? JSON.stringify(data) : undefined, credentials: "same-origin", cache: "no-store" });
  }

  function flush() {
    if (sending || blocked || !queue.length) { return; }
    var item = queue[0];
    if (item.action === "roll" && !online) { return; }
    sending = true;
    request("POST", turnsUrl, body(item)).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) { return { r: r, data: data }; });
    }).then(function (res) {
      sending = false;
      setOnline(true);
      var r = res.r, data = res.data, error = data && data.error;
      if (r.status === 200 || r.status === 201) {
        queue.shift();
        S = data; etag = null;
        save(); render(); flush();
        return;
      }
      if (r.status === 409 && error && error.code === "flag_fell") {
        // the mover's time ran out before the turn: the clock posts the flag (clockTick)
        queue = []; T = fresh(); etag = null; save(); refresh();
        return;
      }
      if (r.status === 409 && error && (error.code === "live_conflict" || error.code === "live_gap")) {
        conflict = { dropped: queue.map(function (q) { return q.text; }) };
        queue = [];
        if (error.fields && error.fields.state) { S = error.fields.state; save(); render(); } else { refresh(); }
        return;
      }
      if (r.status >= 400 && r.status < 500) {
        // an illegal play that may stand as played: the opponent decides (see the top)
        var acceptable = !!(error && error.code === "illegal_play" && error.acceptable);
        blocked = { item: item, message: error ? error.message : String(r.status), later: queue.length - 1, acceptable: acceptable };
        save(); render();
        return;
      }
      item.queued = true;  // sent again later: it waits on this device
      retryLater();
    }).catch(function () {
      sending = false;
      item.queued = true;
      setOnline(false);
      retryLater();
    });
  }

  var retry = null;
  function retryLater() {
    if (retry) { return; }
    retry = window.setTimeout(function () { retry = null; flush(); }, 4000);
  }

  function setOnline(value) {
    if (online !== value) { online = value; renderNet(); }
  }

  function refresh() {
    var headers = {};
    if (etag) { headers["If-None-Match"] = etag; }
    return request("GET", api, null, headers).then(function (r) {
      setOnline(true);
      if (r.status === 304) { return; }
      if (r.status === 404) { S = null; etag = null; save(); render(); return; }
      if (!r.ok) { return; }
      etag = r.headers.get("ETag");
      return r.json().then(function (data) {
        var changed = !S || S.seq !== data.seq || S.game_number !== data.game_number || S.phase !== data.phase;
        S = data;
        save();
        if (changed) {
          if (!T.steps.length && !(T.dice.length && G && G.mode !== "rolled")) { T = fresh(); }
          render();
        }
      });
    }).catch(function () { setOnline(false); });
  }

  function begin(mode) {
    if (!online) { say(W.start_offline); return; }
    request("POST", api, { dice: mode }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (r.ok) { S = data; etag = null; queue = []; T = fresh(); save(); render(); return; }
        say(data && data.error ? data.error.message : String(r.status));
      });
    }).catch(function () { setOnline(false); say(W.start_offline); });
  }

  // --- messages ----------------------------------------------------------------------

  function say(text) {
    banner.hidden = false;
    banner.className = "sheet-banner warn";
    banner.textContent = text;
  }

  function renderBanner() {
    banner.innerHTML = "";
    banner.hidden = true;
    if (blocked && blocked.acceptable) { renderIllegal(); return; }
    if (blocked) {
      banner.hidden = false;
      banner.className = "sheet-banner bad";
      var p = document.createElement("p");
      p.textContent = fill(W.refused, { text: blocked.item.text || "" });
      var m = document.createElement("p");
      m.className = "engine-message";
      m.textContent = blocked.message;
      banner.appendChild(p);
      banner.appendChild(m);
      if (blocked.later > 0) {
        var later = document.createElement("p");
        later.textContent = fill(W.later_dropped, { n: blocked.later });
        banner.appendChild(later);
      }
      banner.appendChild(button(W.correct, "primary", function () {
        blocked = null; queue = []; T = fresh(); save(); etag = null;
        refresh().then(render);
      }, { "data-act": "correct" }));
      return;
    }
    if (conflict) {
      banner.hidden = false;
      banner.className = "sheet-banner warn";
      var c = document.createElement("p");
      c.textContent = W.conflict;
      banner.appendChild(c);
      if (conflict.dropped.length) {
        var d = document.createElement("p");
        d.textContent = fill(W.conflict_dropped, { turns: conflict.dropped.join("; ") });
        banner.appendChild(d);
      }
    }
  }

  /* An illegal play that may stand: why it is illegal, and the opponent's choice — accept
     it as played (the same turn sent again with ``accept_illegal``; the turns queued after
     it stay), or have it corrected (the mover enters the turn again, the same dice). */
  function renderIllegal() {
    var item = blocked.item;
    var players = (S && S.players) || ["", ""];
    banner.hidden = false;
    banner.className = "sheet-banner bad illegal";
    var p = document.createElement("p");
    p.textContent = fill(W.illegal_refused, { text: item.text || "" });
    var m = document.createElement("p");
    m.className = "engine-message";
    m.textContent = blocked.message;
    var ask = document.createElement("p");
    ask.className = "illegal-ask";
    ask.textContent = fill(W.illegal_ask, { name: players[1 - item.side] || "" });
    banner.appendChild(p);
    banner.appendChild(m);
    banner.appendChild(ask);
    if (blocked.later > 0) {
      var later = document.createElement("p");
      later.textContent = fill(W.later_dropped, { n: blocked.later });
      banner.appendChild(later);
    }
    var row = document.createElement("div");
    row.className = "actions";
    row.appendChild(button(W.accept_illegal, "secondary", function () {
      if (queue.length && queue[0].seq === item.seq) { queue[0].accept_illegal = true; }
      blocked = null;
      save(); render(); flush();
    }, { "data-act": "accept-illegal" }));
    row.appendChild(button(W.have_corrected, "primary", function () {
      var dice = item.dice;
      blocked = null; queue = []; T = fresh(); save(); etag = null;
      if (dice && dice.length) { T.dice = dice.slice(); }  // the whole roll again, same dice
      refresh().then(render);
    }, { "data-act": "correct" }));
    banner.appendChild(row);
  }

  function renderNet() {
    var waiting = queue.length;
    netLine.className = "sheet-net" + (online && !blocked ? "" : " offline");
    if (blocked) {
      netLine.textContent = fill(W.stopped, { n: waiting });
    } else if (!online) {
      netLine.textContent = waiting ? fill(W.offline_waiting, { n: waiting }) : W.offline;
    } else {
      netLine.textContent = waiting ? fill(W.sending, { n: waiting }) : W.saved;
    }
    netLine.dataset.waiting = waiting;
  }

  function renderTurns() {
    turnList.innerHTML = "";
    var rows = [];
    // In the reader's words (the players' names, the bar in the page's language), not the
    // record's W/B and bar: LiveBoard.turnWords.
    (S && S.turns ? S.turns : []).forEach(function (t) {
      // the site's roll is in the play line that follows it
      if (t.action !== "roll") { rows.push({ text: LB.turnWords(t, S, W.turn), side: t.side, state: "", illegal: !!t.illegal }); }
    });
    queue.forEach(function (q) {
      rows.push({ text: LB.turnWords(q, S, W.turn), side: q.side, state: q.checked ? "waiting" : "unchecked", illegal: !!q.accept_illegal });
    });
    rows.slice(-8).forEach(function (row) {
      var li = document.createElement("li");
      li.textContent = row.text;
      if (row.illegal) {   // an illegal move the opponent accepted: it stands as played
        var bad = document.createElement("span");
        bad.className = "tag warn";
        bad.textContent = W.accepted_illegal;
        li.appendChild(document.createTextNode(" "));
        li.appendChild(bad);
        li.dataset.illegal = "1";
      }
      if (row.state) {
        var tag = document.createElement("span");
        tag.className = "tag " + (row.state === "unchecked" ? "warn" : "");
        tag.textContent = row.state === "unchecked" ? W.not_checked : W.not_sent;
        li.appendChild(document.createTextNode(" "));
        li.appendChild(tag);
        li.className = row.state;
      }
      turnList.appendChild(li);
    });
    if (turnList.lastChild) { turnList.scrollTop = turnList.scrollHeight; }
  }

  if (flipButton) {
    flipButton.addEventListener("click", function () {
      flipped = !flipped;
      flipButton.setAttribute("aria-pressed", flipped ? "true" : "false");
      save();
      render();
    });
  }

  if (phone.addEventListener) { phone.addEventListener("change", function () { render(); }); }
  window.addEventListener("online", function () { setOnline(true); flush(); });
  window.addEventListener("offline", function () { setOnline(false); });

  function poll() {
    var idle = !sending && !queue.length && !blocked && !T.dice.length && !T.steps.length;
    var go = idle ? refresh() : Promise.resolve(flush());
    Promise.resolve(go).then(function () { window.setTimeout(poll, idle ? 4000 : 2000); });
  }

  var initial = document.getElementById("sheet-state");
  load();
  if (flipButton) { flipButton.setAttribute("aria-pressed", flipped ? "true" : "false"); }
  if (initial) {
    var first = JSON.parse(initial.textContent);
    if (first && (!S || first.game_number > S.game_number || (first.game_number === S.game_number && first.seq >= S.seq))) { S = first; }
  }
  turnRestore();
  render();
  flush();
  window.setInterval(clockTick, 200);
  window.setTimeout(poll, 1500);
  // For the browser tests (and a curious reader's console): the taps since the dice, the
  // chosen checker, and the steps a tap on ``to`` (own numbering) would play now (null: it
  // would choose a checker, or do nothing).
  root.sheet = {
    taps: function () { return taps; },
    selected: function () { return T.sel; },
    direct: function (to) { return T.sel == null ? direct(to) : (destinations(T.sel)[to] || null); }
  };
}());
