/* The big screen (web/views/screen.py): show one panel at a time, in turn, and fetch the
   panels again every few seconds. Written for old TV browsers: ES5 only, fetch where the
   browser has it, XMLHttpRequest otherwise. Both go through the browser's cache, which
   sends the ETag it holds (If-None-Match): the server answers 304 until a result changes. */
(function () {
  "use strict";
  var root = document.getElementById("screen-panels");
  if (!root) { return; }
  var poll = (parseInt(root.getAttribute("data-poll"), 10) || 10) * 1000;
  var rotate = (parseInt(root.getAttribute("data-rotate"), 10) || 15) * 1000;
  var src = root.getAttribute("data-src");
  // ?panel=N keeps panel N on the screen (a TV that shows only the standings, say).
  var pinned = /[?&]panel=(\d+)/.exec(window.location.search);
  document.documentElement.className += " js";

  function show() {
    var panels = root.querySelectorAll(".panel");
    if (!panels.length) { return; }
    // The clock decides which panel shows, so a reload keeps the rotation's place.
    var current = pinned
      ? Math.min(parseInt(pinned[1], 10), panels.length - 1)
      : Math.floor(new Date().getTime() / rotate) % panels.length;
    for (var i = 0; i < panels.length; i++) {
      var cls = panels[i].className.replace(/\s*\bshown\b/g, "");
      panels[i].className = i === current ? cls + " shown" : cls;
    }
  }

  function version(html) {
    var m = /data-version="(\d+)"/.exec(html);
    return m ? m[1] : "";
  }

  function swap(html) {
    if (!html || version(html) === version(root.innerHTML)) { return; }
    root.innerHTML = html;
    show();
  }

  function load() {
    if (window.fetch) {
      window.fetch(src, { credentials: "same-origin", cache: "no-cache" })
        .then(function (r) { return r.ok ? r.text() : ""; })
        .then(swap, function () {});
      return;
    }
    var xhr = new XMLHttpRequest();
    xhr.open("GET", src, true);
    xhr.onreadystatechange = function () {
      if (xhr.readyState === 4 && xhr.status === 200) { swap(xhr.responseText); }
    };
    xhr.send();
  }

  show();
  setInterval(show, 1000);
  setInterval(load, poll);
})();
