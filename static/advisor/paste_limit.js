// A paste over the page's limit is refused here, before anything is sent: sending 9 MB
// only for the server to refuse it takes a long while on a slow link, and the server
// cannot hand back text it refused to read. The text stays in the box; the message goes
// to the errors box the text box names in aria-describedby (role="alert": read out), the
// box is marked aria-invalid. The server checks the same limit (server_views.ReadingForm).
(function () {
  "use strict";

  var MB = 1048576;

  function megabytes(bytes) {
    var shown = (bytes / MB).toFixed(1);
    return (shown.slice(-2) === ".0" ? shown.slice(0, -2) : shown) + " MB";
  }

  function errorBox(area) {
    var ids = (area.getAttribute("aria-describedby") || "").split(/\s+/);
    for (var i = 0; i < ids.length; i++) {
      var box = ids[i] && document.getElementById(ids[i]);
      if (box) return box;
    }
    return null;
  }

  function show(area, message) {
    var box = errorBox(area);
    var field = area.closest(".field");
    if (field) field.classList.toggle("has-error", Boolean(message));
    if (message) {
      area.setAttribute("aria-invalid", "true");
    } else {
      area.removeAttribute("aria-invalid");
    }
    if (!box) return;
    box.replaceChildren();
    if (!message) return;
    var line = document.createElement("p");
    line.textContent = message;
    box.appendChild(line);
  }

  function refusal(area) {
    var max = parseInt(area.dataset.maxBytes, 10);
    if (!max) return "";
    // What the browser sends is UTF-8: count its bytes, not characters.
    var size = new Blob([area.value]).size;
    if (size <= max) return "";
    return "The paste is " + megabytes(size) + "; the limit is " + megabytes(max) +
      ". Upload the collector's bundle file instead, or paste fewer sections.";
  }

  // Capturing, so it runs before htmx or the browser sends the form.
  document.addEventListener("submit", function (event) {
    var area = event.target.querySelector("textarea[data-max-bytes]");
    if (!area) return;
    var message = refusal(area);
    show(area, message);
    if (message) {
      event.preventDefault();
      event.stopImmediatePropagation();
      area.focus();
    }
  }, true);
})();
