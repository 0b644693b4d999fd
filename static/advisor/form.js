// The inventory form, beyond what works without JavaScript: the error summary takes focus
// and its links move focus to their input; leaving with unsaved changes asks first.
(function () {
  "use strict";

  function focusSummary() {
    var summary = document.getElementById("error-summary");
    if (summary && !summary.hidden && document.activeElement !== summary) summary.focus();
  }

  // A link to an input focuses it, with its label in view (a plain link only scrolls).
  function followToInput(event) {
    var link = event.target.closest && event.target.closest("#error-summary a, #preview .problems a");
    if (!link) return;
    var input = document.getElementById(link.getAttribute("href").slice(1));
    if (!input || !input.focus) return;
    event.preventDefault();
    var label = document.querySelector("label[for='" + input.id + "']") || input;
    label.scrollIntoView({ block: "start" });
    input.focus({ preventScroll: true });
  }

  // Unsaved: typed into since the page loaded, or a page the server returned unsaved (a
  // refused save). Saving leaves without asking; downloading the JSON does not leave.
  var dirty = false;
  var leaving = false;

  function watch(form) {
    dirty = form.hasAttribute("data-unsaved");
    form.addEventListener("input", function () { dirty = true; });
    form.addEventListener("change", function () { dirty = true; });
    document.body.addEventListener("rows-changed", function () { dirty = true; });
    form.addEventListener("submit", function (event) {
      if (event.submitter && event.submitter.hasAttribute("data-download")) {
        leaving = true;  // the answer is a file: the page stays, and so do the changes
        setTimeout(function () { leaving = false; }, 1000);
        return;
      }
      leaving = true;
    });
    window.addEventListener("beforeunload", function (event) {
      if (!dirty || leaving) return;
      event.preventDefault();
      event.returnValue = "";
    });
    // Back from a saved result with the browser's cache: the page is the one left.
    window.addEventListener("pageshow", function (event) {
      if (event.persisted) leaving = false;
    });
  }

  // The preview is open beside the form on a laptop and closed after it on a phone (the
  // CSS shows it on a laptop even closed, for pages without JavaScript).
  function foldPreview() {
    var panel = document.querySelector(".preview-panel");
    if (!panel) return;
    var wide = window.matchMedia("(min-width: 901px)");
    panel.open = wide.matches;
    wide.addEventListener("change", function () { panel.open = wide.matches; });
  }

  document.addEventListener("click", followToInput);
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("inventory-form");
    if (!form) return;
    foldPreview();
    watch(form);
    focusSummary();
  });
})();
