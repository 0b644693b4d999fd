// The capacity what-if: the link "Example from chew … fill it in" fills the form in place
// with the paper's worked example (without JavaScript it opens the what-if's own page
// filled in), and the answer below is cleared: it was for other inputs.
(function () {
  "use strict";

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-example]");
    if (!link) return;
    var form = link.closest(".capacity-panel").querySelector("form.capacity-form");
    if (!form) return;
    event.preventDefault();
    var values = JSON.parse(link.dataset.example);
    Object.keys(values).forEach(function (name) {
      var input = form.elements.namedItem(name);
      if (input) input.value = values[name];
    });
    var result = document.getElementById("capacity-result");
    if (result) result.replaceChildren();
    form.elements.namedItem("single").focus();
  });
})();
