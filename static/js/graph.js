// Hovering or focusing a node lights its edges and dims the rest; the picture works without this.
(function () {
  document.querySelectorAll("svg[data-graph]").forEach(function (svg) {
    var edges = Array.prototype.slice.call(svg.querySelectorAll(".edge"));
    var nodes = Array.prototype.slice.call(svg.querySelectorAll(".node-link"));
    function light(id) {
      var near = {};
      near[id] = true;
      edges.forEach(function (e) {
        var hit = e.dataset.from === id || e.dataset.to === id;
        e.classList.toggle("lit", hit);
        e.classList.toggle("dim", !hit);
        if (hit) { near[e.dataset.from] = true; near[e.dataset.to] = true; }
      });
      nodes.forEach(function (n) { n.classList.toggle("dim", !near[n.dataset.node]); });
    }
    function clear() {
      edges.forEach(function (e) { e.classList.remove("lit", "dim"); });
      nodes.forEach(function (n) { n.classList.remove("dim"); });
    }
    nodes.forEach(function (n) {
      n.addEventListener("mouseenter", function () { light(n.dataset.node); });
      n.addEventListener("focus", function () { light(n.dataset.node); });
      n.addEventListener("mouseleave", clear);
      n.addEventListener("blur", clear);
    });
  });
})();
