// The header's language switch keeps the reader's place: the part of the page the address points to (its #fragment,
// which the browser never sends to the server) goes with the page the switch returns to.
(function () {
  document.querySelectorAll("form.language-switch").forEach(function (form) {
    form.addEventListener("submit", function () {
      var next = form.querySelector("input[name=next]");
      if (next && window.location.hash && next.value.indexOf("#") === -1) { next.value += window.location.hash; }
    });
  });
})();
