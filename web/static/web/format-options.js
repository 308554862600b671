// The new-tournament form: show only the options the chosen format reads (each option's
// wrapper names them in data-formats, web/forms/organiser.py). Without this script every
// option shows, as the form works without it; a hidden option keeps its value, and the
// service ignores options its format does not read.
(function () {
  "use strict";
  function chosen() {
    var checked = document.querySelector("input[name='format']:checked");
    return checked ? checked.value : "knockout";
  }
  function update() {
    var format = chosen();
    document.querySelectorAll("[data-formats]").forEach(function (el) {
      el.hidden = el.dataset.formats.split(" ").indexOf(format) < 0;
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var radios = document.querySelectorAll("input[name='format']");
    if (!radios.length) { return; }
    update();
    radios.forEach(function (radio) { radio.addEventListener("change", update); });
  });
}());
