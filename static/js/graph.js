// Graphs read without this script. With it: hovering or focusing a node (a first tap, on a touch screen) lights its
// edges (and dims the axes of the others) and writes its full name in the status line under the picture, as pointing at or
// tapping a line writes what it says; each picture
// zooms and pans by buttons, keys (+ - 0 and arrows), Ctrl/⌘ + wheel (and trackpad pinch), dragging with a mouse
// when zoomed in, and two fingers on touch screens, where one finger scrolls the page; a node that has focus stays in
// view. A box above the picture finds a node by any of its names and gives it the focus, zooming in to it when the
// picture is drawn small.
(function () {
  function lighting(svg) {
    var edges = Array.prototype.slice.call(svg.querySelectorAll(".edge, .axis"));
    var nodes = Array.prototype.slice.call(svg.querySelectorAll(".node-link"));
    var figure = svg.closest("figure");
    var status = figure ? figure.querySelector("[data-graph-status]") : null;
    // A screen that cannot point (a phone) is told what tapping does instead.
    if (status && status.dataset.touchHint && window.matchMedia && window.matchMedia("(hover: none)").matches) {
      status.textContent = status.dataset.touchHint;
    }
    var idle = status ? status.textContent : "";
    if (status) status.hidden = false;
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
      if (status) { status.textContent = idle; status.classList.remove("naming"); }
      shown = null;
    }
    // The label may be shortened; the node's title holds its kind, full name, mechanism and verdict.
    function name(n) {
      var title = n.querySelector("title");
      if (!status || !title) return;
      status.textContent = title.textContent;
      status.lang = title.getAttribute("lang") || "";
      status.classList.add("naming");
    }
    function show(n) { light(n.dataset.node); name(n); }
    // A line says what it is (its axis, the claims on it) the same way, pointed at or tapped: a touch screen
    // shows no tooltip.
    var shown = null;  // the line whose words the status line holds
    function showLine(line) {
      edges.forEach(function (e) { e.classList.toggle("lit", e === line); e.classList.toggle("dim", e !== line); });
      nodes.forEach(function (n) { n.classList.toggle("dim", n.dataset.node !== line.dataset.from && n.dataset.node !== line.dataset.to); });
      name(line);
      shown = line;
    }
    edges.forEach(function (e) {
      if (!e.classList.contains("edge")) return;
      // A line that links (a contrast opens its contrast) is followed at once by a mouse, which has pointed at it
      // already; a first tap on a touch screen says what it is, a second follows it.
      var tapped = false;
      e.addEventListener("pointerdown", function (ev) { tapped = ev.pointerType !== "mouse" && shown !== e; });
      e.addEventListener("mouseenter", function () { showLine(e); });
      e.addEventListener("mouseleave", clear);
      e.addEventListener("click", function (ev) {
        if (tapped && e.closest("a")) ev.preventDefault();
        tapped = false;
        showLine(e);
      });
    });
    nodes.forEach(function (n) {
      n.addEventListener("mouseenter", function () { show(n); });
      n.addEventListener("focus", function () { show(n); });
      n.addEventListener("mouseleave", function () { if (document.activeElement !== n) clear(); else show(n); });
      n.addEventListener("blur", function () { armed = null; clear(); });
    });
    // On a touch screen, which shows no tooltip, the first tap on a node names it in the status line (its label may be
    // shortened) and a second tap on the same node follows its link; a key or a mouse follows at once.
    var touched = false, armed = null;
    svg.addEventListener("pointerdown", function (e) { touched = e.pointerType === "touch"; }, true);
    svg.addEventListener("keydown", function () { touched = false; }, true);
    nodes.forEach(function (n) {
      n.addEventListener("click", function (e) {
        if (!touched || armed === n || e.defaultPrevented) return;
        e.preventDefault();
        armed = n;
        show(n);
      });
    });
  }

  // CSS px per unit of a drawing at which its 12-unit labels read at 11px.
  var READABLE = 11 / 12;

  function zooming(viewport) {
    var svg = viewport.querySelector("svg[data-graph]");
    var base = svg.getAttribute("data-view-box").split(" ").map(Number);
    var view = base.slice();
    var label = (document.documentElement.lang || "").indexOf("zh") === 0
      ? {in: "放大", out: "缩小", reset: "复原"} : {in: "Zoom in", out: "Zoom out", reset: "Reset zoom"};

    function zoomed() { return view[2] < base[2] - 0.5; }
    function apply() {
      svg.setAttribute("viewBox", view.map(function (v) { return v.toFixed(1); }).join(" "));
      viewport.classList.toggle("zoomed", zoomed());
    }
    // Zoomed in, the picture is a window at most 70 % of the screen high (its height follows the view box's shape):
    // a tall picture would otherwise stay taller than the screen, its zoom buttons out of sight.
    function shape() {
      var whole = base[3] / base[2];
      if (!zoomed()) return whole;
      var width = svg.getBoundingClientRect().width;
      return width ? Math.min(whole, 0.7 * window.innerHeight / width) : whole;
    }
    function clamp() {
      view[2] = Math.min(base[2], Math.max(base[2] / 8, view[2]));
      view[3] = view[2] * shape();
      view[0] = Math.min(base[0] + base[2] - view[2], Math.max(base[0], view[0]));
      view[1] = Math.min(base[1] + base[3] - view[3], Math.max(base[1], view[1]));
    }
    function zoom(factor, fx, fy) {  // fx, fy: the fixed point, as fractions of the picture
      fx = fx === undefined ? 0.5 : fx; fy = fy === undefined ? 0.5 : fy;
      var before = svg.getBoundingClientRect();
      var px = view[0] + fx * view[2], py = view[1] + fy * view[3];
      view[2] /= factor;
      clamp();
      view[0] = px - fx * view[2]; view[1] = py - fy * view[3];
      clamp(); apply();
      // When the picture's box shrinks to its window, the page moves with it so that the fixed point stays where it was
      // on the screen (under the fingers, or in the middle of what was in sight).
      var after = svg.getBoundingClientRect();
      if (Math.abs(after.height - before.height) > 0.5) {
        window.scrollBy(0, (after.top + fy * after.height) - (before.top + fy * before.height));
      }
    }
    function pan(dx, dy) { view[0] += dx; view[1] += dy; clamp(); apply(); }
    function reset() { view = base.slice(); apply(); }
    // The middle of the part of the picture on the screen, as fractions of the picture: the buttons zoom about it.
    function inSight() {
      var r = svg.getBoundingClientRect();
      var top = Math.max(r.top, 0), bottom = Math.min(r.bottom, window.innerHeight);
      var left = Math.max(r.left, 0), right = Math.min(r.right, window.innerWidth);
      if (!r.width || !r.height || bottom <= top || right <= left) return {fx: 0.5, fy: 0.5};
      return {fx: ((left + right) / 2 - r.left) / r.width, fy: ((top + bottom) / 2 - r.top) / r.height};
    }
    // Tab walks the nodes in document order, zoomed or not: a node that gets focus outside the shown part
    // of the picture is brought to its middle, or the focus ring would be drawn where nobody sees it.
    function reveal(node) {
      if (!zoomed()) return;
      var box = node.getBBox();
      var inside = box.x >= view[0] && box.y >= view[1] &&
        box.x + box.width <= view[0] + view[2] && box.y + box.height <= view[1] + view[3];
      if (inside) return;
      view[0] = box.x + box.width / 2 - view[2] / 2;
      view[1] = box.y + box.height / 2 - view[3] / 2;
      clamp(); apply();
    }
    // The focused node's centre as fractions of the view, the fixed point of a zoom from the keyboard.
    function centre(node) {
      var box = node.getBBox();
      return {fx: (box.x + box.width / 2 - view[0]) / view[2], fy: (box.y + box.height / 2 - view[1]) / view[3]};
    }
    // Moves the view as little as it takes for the whole of the node to be inside it.
    function keep(node) {
      var box = node.getBBox();
      var w = Math.min(box.width, view[2]), h = Math.min(box.height, view[3]);
      if (box.x < view[0]) view[0] = box.x;
      else if (box.x + w > view[0] + view[2]) view[0] = box.x + w - view[2];
      if (box.y < view[1]) view[1] = box.y;
      else if (box.y + h > view[1] + view[3]) view[1] = box.y + h - view[3];
      clamp(); apply();
    }
    function scale() { return view[2] / svg.getBoundingClientRect().width; }

    var bar = document.createElement("div");
    bar.className = "graph-zoom";
    [["+", label.in, function () { var at = inSight(); zoom(1.5, at.fx, at.fy); }],
     ["−", label.out, function () { var at = inSight(); zoom(1 / 1.5, at.fx, at.fy); }],
     ["⟲", label.reset, reset]].forEach(function (b) {
      var button = document.createElement("button");
      button.type = "button"; button.textContent = b[0]; button.title = b[1];
      button.setAttribute("aria-label", b[1]);
      button.addEventListener("click", b[2]);
      bar.appendChild(button);
    });
    // The bar stays at the top of the screen while the picture is in sight (graph.css); the picture scrolls sideways in
    // a pane of its own, since a box that scrolls would hold the bar inside it.
    var pane = document.createElement("div");
    pane.className = "graph-pane";
    viewport.insertBefore(pane, svg);
    pane.appendChild(svg);
    viewport.insertBefore(bar, pane);
    viewport.classList.add("graph-zoomable");

    // A node found by name is shown: the picture zooms in about it while its labels are drawn smaller than 11px
    // (a large drawing fitted to its frame), and the page, or a picture wider than its frame, scrolls to it.
    svg.addEventListener("graph-show", function (e) {
      var node = e.target.closest(".node-link");
      var width = svg.getBoundingClientRect().width;
      if (!node || !width) return;
      if (width / view[2] < READABLE) {
        var box = node.getBBox();
        view[2] = Math.max(base[2] / 8, width / READABLE);
        view[3] = view[2] * base[3] / base[2];
        view[0] = box.x + box.width / 2 - view[2] / 2;
        view[1] = box.y + box.height / 2 - view[3] / 2;
        clamp(); apply();
      } else {
        keep(node);
      }
      node.scrollIntoView({block: "nearest", inline: "center"});
    });

    svg.addEventListener("focusin", function (e) {
      var node = e.target.closest ? e.target.closest(".node-link") : null;
      if (node) reveal(node);
    });

    // With a node focused, the keys zoom about that node and a pan stops where it would leave the view:
    // the reader keeps sight of what they are on.
    viewport.addEventListener("keydown", function (e) {
      var step = view[2] / 10, handled = true;
      var node = e.target.closest ? e.target.closest(".node-link") : null;
      var at = node ? centre(node) : null;
      if (e.key === "+" || e.key === "=") zoom(1.5, at ? at.fx : undefined, at ? at.fy : undefined);
      else if (e.key === "-" || e.key === "_") zoom(1 / 1.5, at ? at.fx : undefined, at ? at.fy : undefined);
      else if (e.key === "0") reset();
      else if (e.key === "ArrowLeft" && zoomed()) pan(-step, 0);
      else if (e.key === "ArrowRight" && zoomed()) pan(step, 0);
      else if (e.key === "ArrowUp" && zoomed()) pan(0, -step);
      else if (e.key === "ArrowDown" && zoomed()) pan(0, step);
      else handled = false;
      if (handled) { e.preventDefault(); if (node) keep(node); }
    });
    svg.addEventListener("wheel", function (e) {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      var r = svg.getBoundingClientRect();
      zoom(Math.exp(-e.deltaY / 300), (e.clientX - r.left) / r.width, (e.clientY - r.top) / r.height);
    }, {passive: false});

    // A mouse or a pen drags the picture when it is zoomed in. On a touch screen one finger scrolls the page, over
    // the picture too, and two fingers move and zoom the picture, as maps set in a page do (graph.css lets the
    // browser pan, never pinch-zoom, there).
    var drag = null, moved = false;
    svg.addEventListener("pointerdown", function (e) {
      if (e.pointerType === "touch" || !zoomed()) return;
      drag = {id: e.pointerId, x: e.clientX, y: e.clientY}; moved = false;
    });
    svg.addEventListener("pointermove", function (e) {
      if (!drag || drag.id !== e.pointerId) return;
      var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 2) moved = true;
      drag.x = e.clientX; drag.y = e.clientY;
      pan(-dx * scale(), -dy * scale());
    });
    function up(e) { if (drag && drag.id === e.pointerId) drag = null; }
    svg.addEventListener("pointerup", up);
    svg.addEventListener("pointercancel", up);
    // a drag that panned the picture must not also follow the link it started on
    svg.addEventListener("click", function (e) { if (moved) { e.preventDefault(); moved = false; } }, true);

    var pinch = null;
    function fingers(e) {
      if (e.touches.length !== 2) return null;
      var a = e.touches[0], b = e.touches[1];
      return {d: Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY), x: (a.clientX + b.clientX) / 2, y: (a.clientY + b.clientY) / 2};
    }
    svg.addEventListener("touchstart", function (e) { pinch = fingers(e); }, {passive: true});
    svg.addEventListener("touchmove", function (e) {
      var now = fingers(e);
      // A page already scrolling (one finger moved before the second came down) goes on scrolling.
      if (!now || !pinch || !e.cancelable) { pinch = now; return; }
      e.preventDefault();
      pan(-(now.x - pinch.x) * scale(), -(now.y - pinch.y) * scale());
      var r = svg.getBoundingClientRect();
      if (pinch.d > 0) zoom(now.d / pinch.d, (now.x - r.left) / r.width, (now.y - r.top) / r.height);
      pinch = fingers(e);
    }, {passive: false});
    svg.addEventListener("touchend", function (e) { pinch = fingers(e); });
    svg.addEventListener("touchcancel", function () { pinch = null; });
  }

  // Names compared as the box compares them: case, width (ＧＲＰＯ, GRPO), spacing and joining punctuation aside.
  function folded(text) {
    return (text || "").normalize("NFKC").toLowerCase().replace(/[\s\-‐–—_/·・]+/g, " ").trim();
  }

  // Finding a node by name, in Chinese or English whatever the interface's: every name a node answers to is in its
  // data-names (a claim's words are in its title). The frame on screen is searched, a name the same as what is typed
  // first, then one starting with it, then one with a word starting with it, then one holding it. What no node is
  // named is asked of the names the header's search offers: a glossary term's other name (PG, 策略梯度法) leads to
  // the node named as the term is; a work or page of that name not drawn here is offered by a link.
  function finding(box) {
    var figure = box.closest("figure");
    var input = box.querySelector("input");
    var list = box.querySelector("datalist");
    var none = box.querySelector("[data-graph-find-none]");
    var missing = box.querySelector("[data-graph-find-missing]");
    var links = {page: box.querySelector("[data-graph-find-page]"), local: box.querySelector("[data-graph-find-local]"),
                 search: box.querySelector("[data-graph-find-search]")};
    var searchUrl = links.search.getAttribute("href");
    var asking = null;
    function shown() {
      return Array.prototype.slice.call(figure.querySelectorAll("svg[data-graph]")).filter(function (svg) {
        return svg.getBoundingClientRect().width > 0;
      })[0];
    }
    function names(node) {
      if (node.dataset.names) return node.dataset.names.split("\n");
      var title = node.querySelector("title");
      return title ? [title.textContent.trim()] : [];
    }
    function nodes() {
      var svg = shown();
      return svg ? Array.prototype.slice.call(svg.querySelectorAll(".node-link")) : [];
    }
    function fill() {
      var seen = {};
      var options = [];
      nodes().forEach(function (node) {
        names(node).forEach(function (name) {
          if (seen[folded(name)]) return;
          seen[folded(name)] = true;
          var option = document.createElement("option");
          option.value = name;
          options.push(option);
        });
      });
      list.replaceChildren.apply(list, options);
    }
    // How well a name matches: 0 the same, 1 starts with it, 2 a word of it does, 3 holds it; -1 not at all.
    function rank(name, typed) {
      var at = name.indexOf(typed);
      if (at < 0) return -1;
      if (name === typed) return 0;
      if (at === 0) return 1;
      return name.indexOf(" " + typed) >= 0 ? 2 : 3;
    }
    function compare(a, b) {
      for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
      return 0;
    }
    // The node best named by what is typed (or by any of several names): its match, then the shorter name, the
    // node's own name before its other language's, the drawing's order.
    function best(typed) {
      var found = null;
      nodes().forEach(function (node, order) {
        names(node).forEach(function (name, position) {
          var form = folded(name);
          var key = typed.reduce(function (least, each) {
            var r = rank(form, each);
            return r >= 0 && (least < 0 || r < least) ? r : least;
          }, -1);
          if (key < 0) return;
          key = [key, form.length, position, order];
          if (!found || compare(key, found.key) < 0) found = {node: node, key: key};
        });
      });
      return found;
    }
    function show(node) {
      node.focus({preventScroll: true});
      node.dispatchEvent(new CustomEvent("graph-show", {bubbles: true}));
    }
    function say(what, raw) {
      none.hidden = what !== "none";
      missing.hidden = what !== "missing";
      if (what === "missing") missing.querySelector("[data-graph-find-name]").textContent = raw;
      links.page.hidden = links.local.hidden = links.search.hidden = true;
      if (what === "none") {
        links.search.href = searchUrl + "?q=" + encodeURIComponent(raw);
        links.search.hidden = false;
      }
    }
    function offer(named) {
      links.page.href = named.url;
      links.page.hidden = false;
      links.local.href = box.dataset.localUrl.replace("KIND", named.kind).replace("KEY", encodeURIComponent(named.slug));
      links.local.hidden = false;
    }
    function ask(url, signal) {
      return fetch(url, {headers: {Accept: "application/json"}, credentials: "same-origin", signal: signal})
        .then(function (response) { return response.ok ? response.json() : null; });
    }
    // What the wiki has named exactly as typed: a glossary term, whose names lead to a node drawn here, or else a
    // work or page, not drawn here (or it would have been found), offered by its page and its neighbourhood graph.
    function elsewhere(raw, typed) {
      if (asking) asking.abort();
      if (!window.fetch || !window.AbortController) return;
      asking = new AbortController();
      var signal = asking.signal;
      var url = new URL(box.dataset.namesUrl, window.location.href);
      url.searchParams.set("q", raw);
      url.searchParams.set("limit", "20");
      ask(url.toString(), signal).then(function (listed) {
        var same = (Array.isArray(listed) ? listed : []).filter(function (n) { return folded(n.name) === typed; });
        var term = same.filter(function (n) { return n.kind === "term"; })[0];
        var named = same.filter(function (n) { return n.kind !== "term"; })[0];
        var termNode = !term ? Promise.resolve(null) : ask(box.dataset.termUrl.replace("SLUG", encodeURIComponent(term.slug)), signal)
          .then(function (t) {
            if (!t) return null;
            var all = [t.name_zh, t.name_en].concat(t.aliases_zh || [], t.aliases_en || []).map(folded);
            var hit = best(all);
            return hit && hit.key[0] === 0 ? hit.node : null;
          });
        return termNode.then(function (node) {
          if (node) { say("", raw); show(node); }
          else if (named) { say("missing", raw); offer(named); }
        });
      }).catch(function () { /* aborted or offline: what was found (or the search link) stays */ });
    }
    function go(picked) {
      var raw = input.value.trim(), typed = folded(raw);
      say("", raw);
      if (asking) { asking.abort(); asking = null; }
      if (!typed) return;
      var found = best([typed]);
      var whole = found && found.key[0] === 0;
      if (found && (whole || !picked)) show(found.node);
      if (whole || picked) return;
      if (!found) say("none", raw);
      elsewhere(raw, typed);
    }
    box.hidden = false;
    input.addEventListener("focus", fill);
    // A name picked from the list (not typed) is gone to at once; Enter goes to the name nearest what is typed.
    input.addEventListener("input", function (event) {
      if (!(event instanceof InputEvent) || event.inputType === "insertReplacementText") go(true);
    });
    input.addEventListener("keydown", function (event) {
      // Enter that commits an input method's composition is the input method's, not a search.
      if (event.key === "Enter" && !event.isComposing) { event.preventDefault(); go(false); }
    });
  }

  document.querySelectorAll("svg[data-graph]").forEach(lighting);
  document.querySelectorAll("[data-graph-find]").forEach(finding);
  document.querySelectorAll("[data-graph-viewport]").forEach(zooming);
})();
