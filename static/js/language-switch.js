// The header's language switch keeps the reader's place: the part of the page the address points to (its #fragment,
// which the browser never sends to the server) goes with the page the switch returns to. A fragment naming a button
// (the watch button a watch came back to) is no place in the text: the page comes back at the switch itself.
(function () {
  document.querySelectorAll("form.language-switch").forEach(function (form) {
    form.addEventListener("submit", function () {
      var next = form.querySelector("input[name=next]");
      var hash = window.location.hash;
      var target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
      if (target && target.matches("button, input, select, textarea")) { return; }
      if (next && hash && next.value.indexOf("#") === -1) { next.value += hash; }
    });
  });
})();
