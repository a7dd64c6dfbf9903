// While a reference file imports (one request, which may take some seconds for a thousand entries), say how many
// entries are on their way and keep a progress bar moving; the page that answers has the per-entry report.
(function () {
  var form = document.querySelector("[data-import-form]");
  if (!form) return;
  var box = form.querySelector("[data-import-progress]");
  var label = form.querySelector("[data-import-progress-text]");
  var bar = box && box.querySelector("progress");
  function countEntries(text) {
    var bib = text.match(/^\s*@\s*(?!string|preamble|comment)[A-Za-z]+\s*[{(]/gim);
    if (bib) return bib.length;
    var ris = text.match(/^TY {2}- /gm);
    if (ris) return ris.length;
    var csl = text.match(/"title"\s*:/g);
    return csl ? csl.length : 0;
  }
  // The messages come translated from the page, with {count} and {read} to fill in: numbers grouped in thousands as
  // the page's language writes them (1,200 in English; Chinese writes 1200, as the server's own messages do).
  var lang = document.documentElement.lang || "en";
  function number(n) {
    return /^zh/i.test(lang) ? String(n) : n.toLocaleString(lang);
  }
  function say(message, count, read) {
    label.textContent = message.replace("{count}", number(count)).replace("{read}", number(read));
  }
  function start(count) {
    if (!box) return;
    box.hidden = false;
    if (count) say(box.dataset.counted, count, 0);
    if (!count || !bar) return;
    // About 50 entries a second on the server: the bar fills towards 95% at that pace, the answer completes it.
    bar.max = count;
    bar.value = 0;
    var begun = Date.now();
    var said = begun;
    // The bar moves four times a second; the sentence, which a screen reader reads out, every five seconds.
    window.setInterval(function () {
      bar.value = Math.min(count * 0.95, ((Date.now() - begun) / 1000) * 50);
      if (Date.now() - said >= 5000) {
        said = Date.now();
        say(box.dataset.reading, count, Math.round(bar.value));
      }
    }, 250);
  }
  form.addEventListener("submit", function () {
    var file = form.querySelector("[data-import-file]");
    var text = form.querySelector("[data-import-text]");
    if (file && file.files && file.files.length && file.files[0].text) {
      file.files[0].text().then(function (content) { start(countEntries(content)); }, function () { start(0); });
    } else {
      start(text ? countEntries(text.value) : 0);
    }
  });
})();
