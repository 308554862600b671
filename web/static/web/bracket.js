/* The bracket: a player's path through it, highlighted.
 *
 * Every player slot in the bracket names its player (data-player="<id>", _bracket_match.html).
 * Pointing at a slot highlights that player's path: their slots in every round get .path,
 * and the lines joining their consecutive matches get .path-out (leaving a match) and
 * .path-in (entering the next), drawn thicker by site.css.
 *
 * Keyboard: the tab stops in the bracket are the matches (a player's slot sits inside the
 * match's link, so it cannot be a tab stop of its own); a focused match highlights the
 * paths of both its players, the way each of them came and how far they went.
 *
 * The bracket is swapped for a fresh one every few seconds while the tournament runs
 * (htmx, outerHTML of #bracket), so the listeners sit on the document and the highlight
 * is drawn again after each swap. Our own script: no library, no CDN.
 */
(function () {
  "use strict";

  var shown = [];  // the player ids highlighted now

  function bracket() {
    return document.getElementById("bracket");
  }

  function slotsOf(root, id) {
    return root.querySelectorAll('.line[data-player="' + CSS.escape(id) + '"]');
  }

  function clear(root) {
    root.querySelectorAll(".path, .path-out, .path-in").forEach(function (el) {
      el.classList.remove("path", "path-out", "path-in");
    });
  }

  function draw() {
    var root = bracket();
    if (!root) return;
    clear(root);
    // The rounds in order (the third-place match is not joined by lines).
    var rounds = Array.prototype.slice.call(
      root.querySelectorAll(".round:not(.third):not(.aside) ol.matches"));
    shown.forEach(function (id) {
      var selector = '.line[data-player="' + CSS.escape(id) + '"]';
      slotsOf(root, id).forEach(function (slot) { slot.classList.add("path"); });
      rounds.forEach(function (list, r) {
        var next = rounds[r + 1];
        if (!next) return;
        Array.prototype.forEach.call(list.children, function (match, i) {
          // Match i of a round feeds match floor(i / 2) of the next (slot // 2).
          var fed = next.children[Math.floor(i / 2)];
          if (fed && match.querySelector(selector) && fed.querySelector(selector)) {
            match.classList.add("path-out");
            fed.classList.add("path-in");
          }
        });
      });
    });
  }

  function show(ids) {
    shown = ids;
    draw();
  }

  function idsOf(box) {
    return Array.prototype.map.call(box.querySelectorAll(".line[data-player]"), function (slot) {
      return slot.getAttribute("data-player");
    });
  }

  document.addEventListener("mouseover", function (event) {
    var slot = event.target.closest && event.target.closest("#bracket .line[data-player]");
    if (slot) show([slot.getAttribute("data-player")]);
  });
  document.addEventListener("mouseout", function (event) {
    var slot = event.target.closest && event.target.closest("#bracket .line[data-player]");
    if (slot && !(event.relatedTarget && slot.contains(event.relatedTarget))) {
      var focused = document.activeElement && document.activeElement.closest("#bracket .box");
      show(focused ? idsOf(focused) : []);
    }
  });
  document.addEventListener("focusin", function (event) {
    var box = event.target.closest && event.target.closest("#bracket .box");
    if (box) show(idsOf(box));
  });
  document.addEventListener("focusout", function (event) {
    var box = event.target.closest && event.target.closest("#bracket .box");
    if (box && !(event.relatedTarget && event.relatedTarget.closest("#bracket .box"))) show([]);
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (shown.length) draw();
    hint();
  });

  // A bracket wider than the screen says so: the rounds to its right are out of sight
  // on a phone, and a box that scrolls sideways shows no scroll bar until touched.
  function hint() {
    document.querySelectorAll(".bracket-wrap").forEach(function (wrap) {
      var note = wrap.querySelector(".scroll-hint");
      if (note) note.hidden = wrap.scrollWidth <= wrap.clientWidth + 2;
    });
  }
  window.addEventListener("resize", hint);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", hint);
  } else {
    hint();
  }
})();
