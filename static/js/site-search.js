// The header's search box: "/" goes to it, and it offers the works, their components, pages and glossary terms whose
// name starts with what is typed, each marked with its kind; choosing one opens it. Without the script (or before a choice) the box searches as a plain form.
(function () {
  "use strict";
  var input = document.getElementById("site-search-q");
  if (!input) { return; }
  // The "/" key can be turned off on the preferences page (a reader whose speech input types "/" needs it off):
  // the choice is kept in this browser.
  var SHORTCUT = "wiki-slash-shortcut";
  var stored = function () { try { return window.localStorage.getItem(SHORTCUT); } catch (e) { return null; } };
  var shortcutOn = function () { return stored() !== "off"; };
  var setting = document.querySelector("[data-shortcut-setting]");
  if (setting) {
    var box = setting.querySelector("input[type=checkbox]");
    box.checked = shortcutOn();
    box.addEventListener("change", function () {
      try { window.localStorage.setItem(SHORTCUT, box.checked ? "on" : "off"); } catch (e) { /* kept for this page only */ }
      if (box.checked) { input.setAttribute("aria-keyshortcuts", "/"); } else { input.removeAttribute("aria-keyshortcuts"); }
    });
    setting.hidden = false;
  }
  if (!shortcutOn()) { input.removeAttribute("aria-keyshortcuts"); }
  // "/" anywhere but in a field goes to the search box (aria-keyshortcuts on the box says so).
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) { return; }
    if (!shortcutOn()) { return; }
    if (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) { return; }
    event.preventDefault();
    input.focus();
    input.select();
  });
  if (!input.dataset.names || !window.fetch || !window.AbortController) { return; }
  var list = document.createElement("datalist");
  list.id = input.id + "-options";
  input.insertAdjacentElement("afterend", list);
  input.setAttribute("list", list.id);
  input.setAttribute("autocomplete", "off");
  var urls = {};
  var timer = null;
  var pending = null;
  var fill = function () {
    var term = input.value.trim();
    if (pending) { pending.abort(); pending = null; }
    // One letter asks for nothing, but one Chinese (or Japanese, Korean) character is a word already: 强 offers 强化学习.
    if (term.length < 2 && !/^[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]$/.test(term)) {
      list.replaceChildren(); urls = {}; return;
    }
    pending = new AbortController();
    var url = new URL(input.dataset.names, window.location.href);
    url.searchParams.set("q", term);
    fetch(url.toString(), { headers: { Accept: "application/json" }, credentials: "same-origin", signal: pending.signal })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (names) {
        if (!Array.isArray(names)) { return; }
        urls = {};
        list.replaceChildren.apply(list, names.map(function (named) {
          var option = document.createElement("option");
          var label = input.dataset[named.kind + "Label"] || named.kind;
          // A name two things share (a page and a glossary term) is offered twice, the second with its kind, so
          // that each leads to its own.
          option.value = urls[named.name] ? named.name + " · " + label : named.name;
          option.label = label;
          urls[option.value] = named.url;
          return option;
        }));
      })
      .catch(function () { /* aborted or offline: the box still searches */ });
  };
  var later = function () {
    clearTimeout(timer);
    timer = setTimeout(fill, 200);
  };
  input.addEventListener("input", function (event) {
    // A name picked from the list (not typed) opens its work or page.
    if (!(event instanceof InputEvent) || event.inputType === "insertReplacementText") {
      if (urls[input.value]) { window.location.assign(urls[input.value]); return; }
    }
    // Letters an input method holds before they are committed (pinyin on the way to 强化) are not looked up: the
    // end of the composition is.
    if (!event.isComposing) { later(); }
  });
  input.addEventListener("compositionstart", function () { clearTimeout(timer); });
  input.addEventListener("compositionend", later);
})();
