// Triage keys: j/k move between works, a accepts the current suggestion, o opens its override form.
// After an accept the page comes back with the next work's anchor (#triage-<slug>), where the keys go on.
(function () {
  var items = Array.prototype.slice.call(document.querySelectorAll(".triage-item"));
  if (!items.length) return;
  var current = 0;
  function focus(i) { current = Math.max(0, Math.min(items.length - 1, i)); items[current].focus(); }
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select") return;
    var item = items.indexOf(document.activeElement) >= 0 ? document.activeElement : items[current];
    if (event.key === "j") { focus(items.indexOf(item) + 1); event.preventDefault(); }
    else if (event.key === "k") { focus(items.indexOf(item) - 1); event.preventDefault(); }
    else if (event.key === "a") {
      // A work with nothing to read has no suggestion and no accept button; only its override form.
      var accept = item.querySelector("[data-key=a]");
      if (accept) accept.click();
      event.preventDefault();
    }
    else if (event.key === "o") { window.location.href = item.querySelector("[data-key=o]").href; event.preventDefault(); }
  });
  var anchor = null;
  try { anchor = document.getElementById(decodeURIComponent(window.location.hash.slice(1))); } catch (e) { anchor = null; }
  focus(items.indexOf(anchor) >= 0 ? items.indexOf(anchor) : 0);
})();
