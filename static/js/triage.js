// Triage keys: j/k move between works, a accepts the current suggestion, o opens its override form, in either case.
// They act only while a work (or a link or button inside it) has focus: one-letter keys pressed in the
// site's navigation, a form field or anywhere else keep their usual meaning and never save anything.
// After an accept the page comes back with the next work's anchor (#triage-<slug>), where the keys go on.
(function () {
  var items = Array.prototype.slice.call(document.querySelectorAll(".triage-item"));
  if (!items.length) return;
  function focus(i) { items[Math.max(0, Math.min(items.length - 1, i))].focus(); }
  function typing(target) {
    var tag = (target.tagName || "").toLowerCase();
    return tag === "input" || tag === "textarea" || tag === "select" || target.isContentEditable;
  }
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    var target = event.target;
    if (!(target instanceof Element) || typing(target)) return;
    var item = target.closest(".triage-item");
    if (!item || items.indexOf(item) < 0) return;
    // A letter is the same key whatever its case: with Caps Lock on or Shift held the browser reports "J", not "j".
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (key === "j") { focus(items.indexOf(item) + 1); event.preventDefault(); }
    else if (key === "k") { focus(items.indexOf(item) - 1); event.preventDefault(); }
    else if (key === "a") {
      // A work with nothing to read has no suggestion and no accept button; only its override form.
      var accept = item.querySelector("[data-key=a]");
      var status = document.getElementById("triage-status");
      if (accept) accept.click();
      else if (status) { status.textContent = ""; status.textContent = status.dataset.noSuggestion; }
      event.preventDefault();
    }
    else if (key === "o") { window.location.href = item.querySelector("[data-key=o]").href; event.preventDefault(); }
  });
  // One accept at a time: a second press (or click) while the first is on its way would find the work classified
  // already, and its message would replace the first one's.
  var sending = false;
  document.addEventListener("submit", function (event) {
    if (!(event.target instanceof Element) || !event.target.closest(".triage-item")) return;
    if (sending) event.preventDefault();
    sending = true;
  }, true);
  window.addEventListener("pageshow", function () { sending = false; });
  var anchor = null;
  try { anchor = document.getElementById(decodeURIComponent(window.location.hash.slice(1))); } catch (e) { anchor = null; }
  focus(items.indexOf(anchor) >= 0 ? items.indexOf(anchor) : 0);
  // What the last accept did ("Accepted the suggestion for …") came with the page, in a status region that a screen
  // reader does not read out when the page loads: said again, once the focus has moved, where it is read out.
  var said = document.querySelector(".messages-region");
  var status = document.getElementById("triage-status");
  if (said && status) window.setTimeout(function () { status.textContent = said.textContent.trim(); }, 300);
})();
