// A form that does what cannot be undone asks first: its data-confirm is the question
// (the draw, publishing a Swiss round). Without a script the form posts at once, as
// before; the server still refuses what it must.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) { return; }
    if (!window.confirm(form.dataset.confirm)) { event.preventDefault(); }
  }, true);
}());
