// /api/redoc/: Redoc in the reader's colour scheme, the one fixed on the preferences page (data-colour-scheme, set
// by the server) or else the device's, with the wiki's dark palette.
(() => {
  const container = document.getElementById("redoc-container");
  const fixed = container.dataset.colourScheme;
  const dark = fixed ? fixed === "dark" : window.matchMedia("(prefers-color-scheme: dark)").matches;
  const theme = {
    colors: {
      primary: { main: "#8cbcec" },
      text: { primary: "#e4e7eb", secondary: "#a3abb5" },
      border: { dark: "#5a626d", light: "#353b43" },
    },
    schema: { nestedBackground: "#1b1f24", typeNameColor: "#a3abb5", typeTitleColor: "#c9ced5", linesColor: "#5a626d" },
    typography: { code: { color: "#f2a43a", backgroundColor: "#23272d" }, links: { color: "#8cbcec", visited: "#b9a3e6", hover: "#b3d4f4" } },
    sidebar: { backgroundColor: "#1b1f24", textColor: "#e4e7eb", activeTextColor: "#8cbcec", arrow: { color: "#e4e7eb" } },
    rightPanel: { backgroundColor: "#0f1216", textColor: "#e4e7eb" },
  };
  if (dark) {
    document.body.classList.add("redoc-dark");
  }
  // Redoc's menu credits Redocly with a logo it loads from cdn.redoc.ly, which the page's Content Security Policy
  // refuses (the page loads nothing from elsewhere), with an error in the console each time: the logo is left out,
  // its image given no address (and hidden, redoc.css); the credit's words stay.
  const source = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
  Object.defineProperty(HTMLImageElement.prototype, "src", {
    ...source,
    set(value) { source.set.call(this, String(value).startsWith("https://cdn.redoc.ly/") ? "" : value); },
  });
  Redoc.init(container.dataset.specUrl, dark ? { theme } : {}, container);
})();
