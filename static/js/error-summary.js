// A form sent back with errors opens on its summary of them: keyboard and screen reader users start where
// the problem is said, with a link to each field, instead of at the top of the page.
(function () {
  var summary = document.querySelector("[data-error-summary]");
  if (summary) summary.focus();
})();
