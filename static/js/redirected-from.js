// A page reached through another name (a former address, another title) says so under its title; the address bar
// then shows the page's own address, which is the one to copy or bookmark.
(function () {
  var url = new URL(window.location.href);
  if (!url.searchParams.has("redirectedfrom")) return;
  url.searchParams.delete("redirectedfrom");
  window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
})();
