// Small enhancements on top of pages that work without JavaScript:
// the workload mix's live total and the copy buttons on the result page.
(function () {
  "use strict";

  function mixTotal() {
    var out = document.getElementById("mix-total");
    if (!out) return;
    var total = 0;
    document.querySelectorAll("input[data-mix]").forEach(function (input) {
      var v = parseFloat(input.value);
      if (!isNaN(v)) total += v;
    });
    total = Math.round(total * 100) / 100;
    out.textContent = String(total);
    out.closest(".mix-total").classList.toggle("off", Math.abs(total - 100) > 1);
  }

  function copyButtons(root) {
    root.querySelectorAll("button[data-copy]").forEach(function (button) {
      if (!navigator.clipboard) return;
      button.hidden = false;
      button.addEventListener("click", function () {
        var source = document.getElementById(button.dataset.copy);
        navigator.clipboard.writeText(source.textContent).then(function () {
          button.textContent = "Copied";
          setTimeout(function () { button.textContent = "Copy"; }, 1500);
        });
      });
    });
  }

  // The preview answers with the errors of the fields that have one; clear the old ones
  // first so that a corrected field loses its message.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target.id !== "preview") return;
    document.querySelectorAll("#inventory-form .errors").forEach(function (box) {
      box.replaceChildren();
    });
  });

  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("input[data-mix]")) mixTotal();
  });
  document.addEventListener("DOMContentLoaded", function () {
    mixTotal();
    copyButtons(document);
  });
})();
