// "Copy" beside each citation of a page's "Cite this page": the citation's text goes to the clipboard, and a status
// line says so to screen readers. Where the browser keeps the clipboard from the page (a page served over plain HTTP
// from another machine), the citation is selected instead, for the reader to copy with their keys. Without
// JavaScript the buttons stay hidden; the citations can be selected and copied as any text.
(function () {
  var status = document.getElementById("copy-status");

  function say(message) {
    if (!status) return;
    status.textContent = "";
    window.setTimeout(function () { status.textContent = message; }, 50);
  }

  function select(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    element.focus();
    say(status ? status.dataset.selected : "");
  }

  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var target = document.getElementById(button.dataset.copy);
    if (!target) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var text = target.textContent;
      if (!navigator.clipboard || !window.isSecureContext) {
        select(target);
        return;
      }
      navigator.clipboard.writeText(text).then(function () {
        say(status ? status.dataset.copied : "");
      }, function () {
        select(target);
      });
    });
  });
})();
