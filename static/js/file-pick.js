// A file field's button and the name of the file chosen, in the wiki's language: the browser's own ("Choose File",
// "No file chosen") speak the browser's. The input stays in the page, unseen but focusable, and opens the picker.
(function () {
  document.querySelectorAll("[data-file-pick]").forEach(function (pick) {
    var input = pick.querySelector("input[type=file]");
    var name = pick.querySelector("[data-file-name]");
    if (!input || !name) return;
    pick.classList.add("file-pick-ready");
    pick.querySelectorAll("[hidden]").forEach(function (element) { element.hidden = false; });
    function show() {
      var files = Array.prototype.map.call(input.files || [], function (file) { return file.name; });
      name.textContent = files.length ? files.join(", ") : name.dataset.none;
    }
    input.addEventListener("change", show);
    show();  // a file kept by the browser on going back
  });
})();
