/* The match's clock as the live state carries it (scoresheets/clock.py): each player's
 * remaining time when the running clock started, whose clock runs, the simple delay.
 *
 * Shared by the recording page (scoresheet.js runs the clock on the device's monotonic
 * time) and the followers' boards (live-board.js: the running clock counted from the
 * server's record of when it started, ``since``). A face shows m:ss, tenths under ten
 * seconds; ``data-ms`` holds the remaining milliseconds, ``data-running`` whose runs.
 */
(function () {
  "use strict";

  function format(ms) {
    ms = Math.max(0, Math.floor(ms));
    if (ms < 10000) { return "0:0" + (Math.floor(ms / 100) / 10).toFixed(1); }
    var s = Math.floor(ms / 1000);
    var m = Math.floor(s / 60);
    s = s % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  /* ``side``'s time left when the running clock has run ``elapsed`` ms (simple delay). */
  function left(clock, side, elapsed) {
    var r = clock.remaining[side];
    if (clock.running !== side) { return r; }
    return Math.max(0, r - Math.max(0, elapsed - clock.delay));
  }

  /* Draw both faces into ``box`` (its two .clock-face children, made once). */
  function draw(box, clock, names, elapsed) {
    if (!clock) { box.hidden = true; return; }
    box.hidden = false;
    var faces = box.querySelectorAll(".clock-face");
    if (faces.length !== 2) {
      box.innerHTML = "";
      [0, 1].forEach(function (side) {
        var face = document.createElement("span");
        face.className = "clock-face";
        face.dataset.side = side;
        var who = document.createElement("span");
        who.className = "clock-name";
        var time = document.createElement("strong");
        time.className = "clock-time";
        face.appendChild(who);
        face.appendChild(document.createTextNode(" "));
        face.appendChild(time);
        box.appendChild(face);
      });
      faces = box.querySelectorAll(".clock-face");
    }
    [0, 1].forEach(function (side) {
      var face = faces[side];
      var ms = left(clock, side, elapsed);
      face.dataset.ms = Math.floor(ms);
      face.dataset.running = clock.running === side ? "1" : "0";
      face.dataset.flag = clock.flag === side ? "1" : "0";
      face.querySelector(".clock-name").textContent = (names && names[side]) || "";
      face.querySelector(".clock-time").textContent = format(ms);
    });
  }

  window.SheetClock = { format: format, left: left, draw: draw };
}());
