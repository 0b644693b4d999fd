// The inventory form, beyond what works without JavaScript: the error summary takes focus
// and its links move focus to their input; leaving with unsaved changes asks first; the
// workload preset fills the mix shares; the inputs changed are listed for the preview,
// which marks only their problems (nothing is red on a field not yet touched).
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

  // The inputs the user changed, in the hidden "touched" input ("*" once every problem shows).
  function trackTouched(form) {
    var list = document.getElementById("touched");
    if (!list) return;
    function note(event) {
      var name = event.target && event.target.name;
      if (!name || list.value === "*" || name === "touched") return;
      var names = list.value ? list.value.split(" ") : [];
      if (names.indexOf(name) < 0) list.value = names.concat([name]).join(" ");
    }
    form.addEventListener("input", note, true);
    form.addEventListener("change", note, true);
  }

  // A preset fills the four shares with its mix; a share typed by hand makes the mix the
  // user's own. The server reads the same inputs the same way without this script.
  function presets(form) {
    var select = form.querySelector("select[data-presets]");
    var filled = form.querySelector("input[name='preset_filled']");
    if (!select || !filled) return;
    var mixes = JSON.parse(select.dataset.presets);
    var filling = false;
    select.addEventListener("change", function () {
      var mix = mixes[select.value];
      if (!mix) { document.getElementById("mix-details").open = true; return; }
      filling = true;
      Object.keys(mix).forEach(function (name) {
        var input = form.querySelector("input[name='" + name + "']");
        if (!input) return;
        input.value = mix[name];
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
      filling = false;
      filled.value = select.value;
    });
    form.addEventListener("input", function (event) {
      if (filling || !event.target.matches("input[data-mix]")) return;
      select.value = "custom";
    });
  }

  document.addEventListener("click", followToInput);
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("inventory-form");
    if (!form) return;
    foldPreview();
    watch(form);
    trackTouched(form);
    presets(form);
    focusSummary();
  });
})();
