// Small enhancements on top of pages that work without JavaScript:
// the workload mix's live total, the copy buttons on the result page, a bundle file's
// size checked before it is sent, and refusals (400, 413) shown where a result would be.
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

  // A region marked data-swap-errors shows the server's refusal (an oversized or garbled
  // bundle, too many reports waiting) instead of htmx's default of ignoring 4xx answers.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    var refused = status === 400 || status === 413 || status === 429;
    if (refused && event.detail.target.hasAttribute("data-swap-errors")) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  function checkSize(input) {
    var max = parseInt(input.dataset.maxBytes, 10);
    var file = input.files && input.files[0];
    var message = "";
    if (file && max && file.size > max) {
      message = "This file is " + (file.size / 1048576).toFixed(1) + " MB; the limit is " +
        (max / 1048576).toFixed(1) + " MB.";
    }
    input.setCustomValidity(message);
    if (message) input.reportValidity();
  }

  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches("input[type=file][data-max-bytes]")) {
      checkSize(event.target);
    }
  });

  // Before htmx or the browser sends it (the forms are novalidate for the server's messages).
  document.addEventListener("submit", function (event) {
    var input = event.target.querySelector("input[type=file][data-max-bytes]");
    if (input && !input.checkValidity()) {
      event.preventDefault();
      event.stopImmediatePropagation();
      input.reportValidity();
    }
  }, true);

  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("input[data-mix]")) mixTotal();
  });
  document.addEventListener("DOMContentLoaded", function () {
    mixTotal();
    copyButtons(document);
  });
})();
