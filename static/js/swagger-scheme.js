// /api/docs/: Swagger UI's own dark look (html.dark-mode) follows the device when the reader has not fixed a colour
// scheme on the preferences page (the server sets a fixed one on <html>). Loaded in <head>, so the page never flashes.
(() => {
  const root = document.documentElement;
  if (root.dataset.colourScheme) {
    return;
  }
  const dark = window.matchMedia("(prefers-color-scheme: dark)");
  const follow = () => root.classList.toggle("dark-mode", dark.matches);
  follow();
  dark.addEventListener("change", follow);
})();
