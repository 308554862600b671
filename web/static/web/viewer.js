/* The game-record viewer: step through a game without reloading the page.
 *
 * The server draws every turn (web/board.py) and embeds the drawings as JSON
 * (#viewer-frames: [{svg, caption, label, move, position}, ...]); this script only
 * swaps the drawn layer into the board, updates the board's accessible name, the
 * live caption, the buttons, the turn list and the address (?turn=N). Keys: Left and
 * Right step one turn, Home and End jump to the start and the end. Without this
 * script the buttons and the turn list are plain links/forms that reload the page.
 */
(function () {
  "use strict";

  var root = document.getElementById("viewer");
  var data = document.getElementById("viewer-frames");
  var svg = document.getElementById("board");
  var layer = document.getElementById("board-layer");
  if (!root || !data || !svg || !layer) {
    return;
  }
  var frames = JSON.parse(data.textContent);
  var last = frames.length - 1;
  var turn = Math.min(Math.max(parseInt(root.dataset.turn, 10) || 0, 0), last);
  var status = document.getElementById("viewer-status");
  var position = document.getElementById("viewer-position");
  var toggle = document.getElementById("view-toggle");
  var links = root.querySelectorAll(".move-list a[data-turn]");

  function target(go) {
    switch (go) {
      case "first": return 0;
      case "prev": return turn - 1;
      case "next": return turn + 1;
      case "last": return last;
      default: return turn;
    }
  }

  // Scroll the turn list (only the list, never the page) so that ``link`` is in view.
  function reveal(link) {
    var list = link.closest("ol");
    if (!list) {
      return;
    }
    var top = link.offsetTop;
    var bottom = top + link.offsetHeight;
    if (top < list.scrollTop) {
      list.scrollTop = top;
    } else if (bottom > list.scrollTop + list.clientHeight) {
      list.scrollTop = bottom - list.clientHeight;
    }
  }

  function show(next) {
    next = Math.min(Math.max(next, 0), last);
    if (next === turn) {
      return;
    }
    turn = next;
    var frame = frames[turn];
    layer.innerHTML = frame.svg;
    svg.setAttribute("aria-label", frame.label);
    if (status) {
      status.textContent = frame.caption;
    }
    if (position) {
      position.textContent = frame.position;
    }
    root.dataset.turn = String(turn);
    root.querySelectorAll("[data-go]").forEach(function (button) {
      var to = Math.min(Math.max(target(button.dataset.go), 0), last);
      button.value = String(to);
      button.disabled = to === turn;
    });
    links.forEach(function (link) {
      if (Number(link.dataset.turn) === turn) {
        link.setAttribute("aria-current", "step");
        reveal(link);
      } else {
        link.removeAttribute("aria-current");
      }
    });
    var url = new URL(window.location.href);
    url.searchParams.set("turn", String(turn));
    window.history.replaceState(null, "", url);
    if (toggle) {
      toggle.href = toggle.dataset.base + "&turn=" + turn;
    }
  }

  root.addEventListener("click", function (event) {
    var button = event.target.closest("[data-go]");
    if (button) {
      event.preventDefault();
      var next = target(button.dataset.go);
      show(next);
      // Keep the keyboard focus on a button that can still be used.
      if (button.disabled) {
        var other = root.querySelector(
          button.dataset.go === "first" || button.dataset.go === "prev"
            ? "[data-go=next]" : "[data-go=prev]");
        if (other) {
          other.focus();
        }
      }
      return;
    }
    var link = event.target.closest("a[data-turn]");
    if (link && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
      event.preventDefault();
      show(Number(link.dataset.turn));
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    var el = event.target;
    if (el && (el.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName))) {
      return;
    }
    var go = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"}[event.key];
    if (go) {
      event.preventDefault();
      show(target(go));
    }
  });
})();
