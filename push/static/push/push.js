/* Changes pushed to the page (the push app): every element with data-push="/push/…/" is
 * told by its stream (Server-Sent Events, one EventSource per address) that its part has
 * a new version. When the event carries the part (push/shared.py: "body", or "diff" to
 * apply to the answer whose ETag is "base"), the part is swapped in without asking;
 * otherwise it asks for it as it does when it polls, with its ETag:
 *
 * - an htmx part (the bracket, the match's live part) gets the event "brade:push", one of
 *   its hx-trigger's, and its poll asks BradePush.due(this) first: while its stream is
 *   healthy it polls once a minute (SLOW), a safety net; otherwise as it always did;
 * - the live board (live-board.js) sets el.bradePushed, called instead, and asks
 *   BradePush.healthy(el) for its next poll's delay.
 *
 * The stream's "hello" carries the public parts whole ("bodies"): the page shows them but
 * does not hold their text, which a change's diff applies to. Sent as each follower
 * connects, they are spread over the time followers arrive, where a page naming the
 * version it shows ("?v=part:12", which the node still honours for clients that hold the
 * text) would get its first change whole, at the same moment as every other such page.
 * A part the hello does not carry (a signed-in reader's, staff's) is asked for only when
 * its version is not the one the page shows (data-push-v). The node knows which answer
 * each page holds (the last it sent it), so its events carry the changes from that one.
 *
 * Where there is no EventSource (an old TV's browser), the stream fails (a proxy that
 * buffers, the embedded server's 404) or closes (the reader may no longer see it), the
 * parts poll as before. Plain ES5, as the big screen's script.
 */
(function () {
  "use strict";

  var SLOW = 60000;
  var streams = {};

  function each(url, on, fn) {
    var found = document.querySelectorAll("[data-push]");
    for (var i = 0; i < found.length; i++) {
      var el = found[i];
      if (el.getAttribute("data-push") === url && (el.getAttribute("data-push-on") || "part") === on) { fn(el); }
    }
  }

  // The last answer of each htmx part (url + " " + on): its ETag and text, kept so that
  // a pushed diff can be applied to it.
  var held = {};

  function patch(text, diff) {
    var out = "", last = 0;
    for (var i = 0; i < diff.length; i++) {
      out += text.slice(last, diff[i][0]) + diff[i][2];
      last = diff[i][1];
    }
    return out + text.slice(last);
  }

  /* The part's new text from the event's data, or null (then it is asked for). */
  function pushedText(key, data) {
    if (!data || !data.etag) { return null; }
    if (typeof data.body === "string") { return data.body; }
    var had = held[key];
    if (data.diff && had && had.etag === data.base) { return patch(had.text, data.diff); }
    return null;
  }

  function fire(url, on, data) {
    var s = streams[url];
    if (s) {
      s.last[on] = Date.now();
      if (data && typeof data.v === "number") { s.shown[on] = data.v; }
    }
    var key = url + " " + on;
    each(url, on, function (el) {
      if (typeof el.bradePushed === "function") { el.bradePushed(data); return; }
      if (!window.htmx) { return; }
      var text = pushedText(key, data);
      if (text !== null && window.htmx.swap) {
        held[key] = { etag: data.etag, text: text };
        window.htmx.swap(el, text, { swapStyle: "outerHTML" });
      } else {
        window.htmx.trigger(el, "brade:push");
      }
    });
  }

  function parsed(e) {
    try { return JSON.parse(e.data); } catch (err) { return null; }
  }

  // An htmx part's own answers (its polls, its asks after an event) are kept for the diffs.
  document.addEventListener("htmx:afterRequest", function (e) {
    var el = e.detail && e.detail.elt, xhr = e.detail && e.detail.xhr;
    if (!el || !xhr || !el.getAttribute || !el.getAttribute("data-push") || xhr.status !== 200) { return; }
    var key = el.getAttribute("data-push") + " " + (el.getAttribute("data-push-on") || "part");
    held[key] = { etag: xhr.getResponseHeader("ETag"), text: xhr.responseText };
  });

  /* The versions the page's parts of this stream show (data-push-v): "on" -> version. */
  function shownOf(url) {
    var out = {};
    each(url, "part", function (el) { var v = el.getAttribute("data-push-v"); if (v) { out.part = parseInt(v, 10); } });
    each(url, "board", function (el) { var v = el.getAttribute("data-push-v"); if (v) { out.board = parseInt(v, 10); } });
    return out;
  }

  function open(url) {
    if (streams[url]) { return streams[url]; }
    var s = streams[url] = { healthy: false, last: {}, shown: shownOf(url) };
    if (!window.EventSource) { return s; }
    var source = new EventSource(url);
    // The first hello, and each after a reconnection: a part it carries is swapped in; one
    // whose version is not the one shown is asked for.
    source.addEventListener("hello", function (e) {
      s.healthy = true;
      var data = parsed(e) || {}, bodies = data.bodies || {};
      var names = ["part", "board"];
      for (var i = 0; i < names.length; i++) {
        var on = names[i];
        if (bodies[on]) {
          fire(url, on, bodies[on]);
        } else if (typeof data[on] !== "number" || data[on] !== s.shown[on]) {
          if (typeof data[on] === "number") { s.shown[on] = data[on]; }
          fire(url, on);
        }
      }
    });
    source.addEventListener("part", function (e) { fire(url, "part", parsed(e)); });
    source.addEventListener("board", function (e) { fire(url, "board", parsed(e)); });
    source.addEventListener("closed", function () { s.healthy = false; source.close(); });
    // The browser reconnects by itself (the stream's retry); meanwhile the parts poll.
    source.onerror = function () { s.healthy = false; };
    return s;
  }

  function healthy(el) {
    var url = el && el.getAttribute && el.getAttribute("data-push");
    return !!(url && streams[url] && streams[url].healthy);
  }

  /* Whether el's own poll is to go now (its hx-trigger's filter). */
  function due(el) {
    if (!healthy(el)) { return true; }
    var s = streams[el.getAttribute("data-push")];
    var on = el.getAttribute("data-push-on") || "part";
    if (Date.now() - (s.last[on] || 0) < SLOW) { return false; }
    s.last[on] = Date.now();
    return true;
  }

  function start() {
    var found = document.querySelectorAll("[data-push]");
    for (var i = 0; i < found.length; i++) { open(found[i].getAttribute("data-push")); }
  }

  window.BradePush = { due: due, healthy: healthy, SLOW: SLOW };
  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:afterSwap", start);
}());
