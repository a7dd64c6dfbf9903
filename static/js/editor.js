// Progressive enhancement for the editor screens; every form works without it.
(function () {
  "use strict";

  // The token in the CSRF cookie (Django's default name): logging in again in another tab replaces it, and the
  // token a form was opened with then no longer holds.
  function cookieToken() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function csrfToken(form) {
    var input = form.querySelector("input[name=csrfmiddlewaretoken]");
    return cookieToken() || (input ? input.value : "");
  }

  // A form sends the current token, so that one opened before the editor logged in again elsewhere still saves.
  document.querySelectorAll("form[method=post]").forEach(function (form) {
    form.addEventListener("submit", function () {
      var input = form.querySelector("input[name=csrfmiddlewaretoken]");
      var current = cookieToken();
      if (input && current) { input.value = current; }
    });
  });

  // Acts on what is typed in ``field``: ``delay`` milliseconds after typing stops (at once when there is none), never
  // on the letters an input method holds before they are committed (the pinyin "qiang'hua" on the way to 强化): the
  // end of the composition counts as the typing.
  var afterTyping = function (field, delay, act) {
    var timer = null;
    var typed = function () {
      clearTimeout(timer);
      if (delay) { timer = setTimeout(act, delay); } else { act(); }
    };
    field.addEventListener("input", function (event) { if (!event.isComposing) { typed(); } });
    field.addEventListener("compositionstart", function () { clearTimeout(timer); });
    field.addEventListener("compositionend", typed);
  };

  // Live Markdown preview: re-render on the server a moment after typing stops.
  var pane = document.getElementById("live-preview");
  // After "Preview" the page opens on the preview, which takes the focus (a screen reader reads it next) without the
  // browser's own scrolling to it, which puts the middle of a tall preview in the middle of a phone's screen: its top
  // is brought into view instead, where reading starts. A form sent back with errors keeps the focus on their summary.
  if (pane && pane.hasAttribute("data-preview-shown") && !document.querySelector("[data-error-summary]")) {
    pane.focus({ preventScroll: true });
    var paneTop = pane.getBoundingClientRect().top;
    if (paneTop < 0 || paneTop > window.innerHeight / 2) { pane.scrollIntoView({ block: "start" }); }
  }
  // After "Show changes" the page opens on the diff, above the form, as it opens on the preview after "Preview".
  var changes = document.querySelector("[data-changes-shown]");
  if (changes && !document.querySelector("[data-error-summary]")) {
    changes.focus({ preventScroll: true });
    changes.scrollIntoView({ block: "start" });
  }
  var body = document.querySelector("textarea[name=body]");
  if (pane && body && window.fetch) {
    var target = document.getElementById("preview-body");
    var status = document.getElementById("preview-status");
    var pending = null;
    var say = function (text) {
      var note = document.createElement("p");
      note.className = "message error";
      note.setAttribute("role", "alert");
      note.textContent = text || "";
      target.replaceChildren(note);
    };
    var refresh = function () {
      if (pending) { pending.abort(); }
      pending = new AbortController();
      var data = new FormData();
      data.append("body", body.value);
      if (pane.dataset.page) { data.append("slug", pane.dataset.page); }
      // The page the form was opened on (page_id), wherever it has moved since, is the one previewed, never a page
      // created meanwhile at the address the form was opened at. A section's preview says what saving it does to the
      // whole page's claims: its number and the revision it is read from name the text it goes into.
      ["page_id", "section", "base_revision"].forEach(function (name) {
        var input = body.form && body.form.elements.namedItem(name);
        if (input && input.value) { data.append(name, input.value); }
      });
      // Titles confirmed as new works stay confirmed in the refreshed preview.
      target.querySelectorAll("input[name=new_works]:checked").forEach(function (box) {
        data.append("new_works", box.value);
      });
      fetch(pane.dataset.previewUrl, {
        method: "POST",
        body: data,
        headers: { "X-CSRFToken": csrfToken(body.form) },
        credentials: "same-origin",
        signal: pending.signal
      }).then(function (response) {
        // Logged out, or the token expired: the answer is a login page or an error, never a preview to show.
        if (response.redirected || response.status === 401 || response.status === 403) {
          return say(pane.dataset.sessionEnded);
        }
        // 422: the text is too large or too deeply nested, and the fragment says which.
        if (!response.ok && response.status !== 422) { return say(pane.dataset.previewFailed); }
        return response.text().then(function (html) {
          target.innerHTML = html;  // server-sanitised fragment
          // Said when what the preview warns of changes (and the first time), not after every pause in typing.
          var warnings = target.querySelectorAll(".errorlist li, .notice").length;
          if (status && warnings !== saidWarnings) { status.textContent = ""; status.textContent = pane.dataset.previewUpdated; }
          saidWarnings = warnings;
        });
      }).catch(function (error) {
        if (!error || error.name !== "AbortError") { say(pane.dataset.previewFailed); }
      });
    };
    var saidWarnings = -1;
    afterTyping(body, 600, refresh);
  }

  // Enter in a one-line field sends the form with its first button: the page form's is a hidden "Preview", so Enter
  // there previews and never saves the page; the other forms are sent as their own first button says.

  // Long lists of checkboxes (claims, sources) get a filter box.
  document.querySelectorAll("[data-filter-choices]").forEach(function (input) {
    var list = document.getElementById(input.dataset.filterChoices);
    if (!list) { return; }
    input.closest("label").hidden = false;
    afterTyping(input, 0, function () {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      list.querySelectorAll("label").forEach(function (label) {
        var text = label.textContent.toLowerCase();
        var box = label.querySelector("input");
        var show = (box && box.checked) || words.every(function (w) { return text.indexOf(w) >= 0; });
        (label.parentElement.tagName === "DIV" && label.parentElement !== list ? label.parentElement : label).hidden = !show;
      });
    });
  });

  // Pickers of works and pages: as the editor types (two characters or more), a list of matching rows from the
  // API list the input names, each offered as its slug and labelled with its short name (a work's) and title. A
  // field of several completes the name after its last comma.
  document.querySelectorAll("input[data-picker][data-picker-search]").forEach(function (input, index) {
    if (!window.fetch || !window.AbortController) { return; }
    var multiple = input.dataset.picker === "multiple";
    var list = document.createElement("datalist");
    list.id = (input.id || "picker-" + index) + "-options";
    input.insertAdjacentElement("afterend", list);
    input.setAttribute("list", list.id);
    var pending = null;
    var fill = function () {
      var comma = multiple ? input.value.lastIndexOf(",") : -1;
      var before = comma >= 0 ? input.value.slice(0, comma + 1) + " " : "";
      var term = input.value.slice(comma + 1).trim();
      if (pending) { pending.abort(); pending = null; }
      if (term.length < 2) { list.replaceChildren(); return; }
      pending = new AbortController();
      var url = new URL(input.dataset.pickerSearch, window.location.href);
      url.searchParams.set("q", term);
      url.searchParams.set("page_size", "10");
      fetch(url.toString(), {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
        signal: pending.signal
      }).then(function (response) {
        return response.ok ? response.json() : null;
      }).then(function (data) {
        if (!data || !Array.isArray(data.results)) { return; }
        list.replaceChildren.apply(list, data.results.map(function (row) {
          var option = document.createElement("option");
          option.value = before + row.slug;
          option.label = row.short_name ? row.short_name + " — " + row.title : row.title;
          return option;
        }));
      }).catch(function () { /* aborted or offline: the field still takes a typed name */ });
    };
    afterTyping(input, 250, fill);
  });

  // Rubric: show the verdict the four facts give while they are set (a fact holds only when it is "yes").
  var rubric = document.querySelector("[data-rubric]");
  if (rubric) {
    var out = rubric.querySelector("[data-rubric-verdict]");
    var labels = JSON.parse(rubric.dataset.rubric);
    var checked = function (name) {
      var box = rubric.querySelector("input[name=" + name + "]:checked");
      return !!box && (box.type === "checkbox" || box.value === "true");
    };
    var update = function () {
      var mechanism = (rubric.form || document).querySelector("select[name=mechanism]");
      var interaction = checked("interactive_env") && checked("multi_step") && checked("verifiable_reward");
      var verdict = "not_strict";
      if (interaction && checked("rl_update")) { verdict = checked("narrow") ? "strict_narrow" : "strict"; }
      else if (interaction && mechanism && mechanism.value === "evolution_strategies") { verdict = "adjacent"; }
      out.textContent = labels[verdict] || verdict;
      out.dataset.verdict = verdict;
    };
    (rubric.form || rubric).addEventListener("change", update);
    update();
  }

  // One click copies the classifier's suggestion into the rubric fields.
  document.querySelectorAll("[data-accept-suggestion]").forEach(function (button) {
    button.addEventListener("click", function (event) {
      var form = button.form;
      var values = JSON.parse(button.dataset.acceptSuggestion);
      if (!form) { return; }
      event.preventDefault();
      Object.keys(values).forEach(function (name) {
        var field = form.elements[name];
        if (!field) { return; }
        if (field.type === "checkbox") { field.checked = !!values[name]; }
        else if (field instanceof RadioNodeList) { field.value = values[name] === null ? "unknown" : String(values[name]); }
        else { field.value = values[name]; }
        (field.dispatchEvent ? field : form).dispatchEvent(new Event("change", { bubbles: true }));
      });
    });
  });

  // The edit-conflict screen: the merged text opens with its first clash (a line of <<<<<<<) selected and in sight
  // inside its box, the focus left on the message above; "Jump to the conflict" goes to the box with the clash
  // selected, and each further press to the next clash, after the last back to the first.
  var jump = document.querySelector("[data-jump-conflict]");
  var merged = jump ? document.getElementById(jump.getAttribute("href").slice(1)) : null;
  if (merged) {
    var MARKER = "<<<<<<<";
    // How far down the box's text the character at ``at`` is, measured in a copy of the box laid out the same way.
    var lineTop = function (at) {
      var style = window.getComputedStyle(merged);
      var copy = document.createElement("div");
      ["fontFamily", "fontSize", "fontWeight", "lineHeight", "letterSpacing", "wordSpacing", "tabSize", "textIndent",
       "paddingTop", "paddingRight", "paddingBottom", "paddingLeft"].forEach(function (name) { copy.style[name] = style[name]; });
      copy.style.cssText += ";position:absolute;visibility:hidden;left:-9999px;top:0;box-sizing:border-box;border:0;" +
        "white-space:pre-wrap;overflow-wrap:break-word;width:" + merged.clientWidth + "px";
      copy.textContent = merged.value.slice(0, at);
      var mark = copy.appendChild(document.createElement("span"));
      mark.textContent = "\u200b";
      document.body.appendChild(copy);
      var top = mark.offsetTop;
      copy.remove();
      return top;
    };
    var selectClash = function (from) {
      var at = merged.value.indexOf(MARKER, from);
      if (at < 0) { at = merged.value.indexOf(MARKER); }
      if (at < 0) { return false; }
      var end = merged.value.indexOf("\n", at);
      merged.setSelectionRange(at, end < 0 ? merged.value.length : end);
      merged.scrollTop = Math.max(0, lineTop(at) - merged.clientHeight / 3);
      return true;
    };
    selectClash(0);
    jump.addEventListener("click", function (event) {
      var from = document.activeElement === merged ? merged.selectionEnd : merged.selectionStart;
      if (!selectClash(from)) { return; }  // no clash left: the link goes to the box as it would without the script
      event.preventDefault();
      merged.focus({ preventScroll: true });
      merged.scrollIntoView({ block: "start" });
    });
  }

  // Leaving an edit form with changes not sent (a link, the language switch, closing the tab) asks first, as the
  // browser words it; sending the form does not.
  var typed = function (form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && typeof value === "string") { fields.push(name + "=" + value); }
    });
    return fields.join("&");
  };
  var editForms = Array.prototype.filter.call(document.querySelectorAll("form.edit-form"), function (form) {
    return form.querySelector("textarea, input[type=text], input:not([type])") !== null;
  });
  // A form that opens holding text not saved yet (an edit conflict's merged text) asks even before it is changed.
  var opened = editForms.map(function (form) { return form.hasAttribute("data-unsaved") ? null : typed(form); });
  var sending = false;
  editForms.forEach(function (form) {
    form.addEventListener("submit", function () { sending = true; });
  });
  window.addEventListener("beforeunload", function (event) {
    if (sending) { return; }
    var changed = editForms.some(function (form, index) { return typed(form) !== opened[index]; });
    if (changed) {
      event.preventDefault();
      event.returnValue = "";
    }
  });
  // Back from another page (the browser's cache may restore the page as it was left): a new leave may ask again.
  window.addEventListener("pageshow", function () { sending = false; });

  document.querySelectorAll("form[data-draft]").forEach(keepDraft);

  // A page's text as it is typed, kept in this browser (localStorage) until it is saved: a crash, a closed window
  // or a lost connection loses nothing. A draft is the page's (or a new page's), of one section or the whole text,
  // started from one revision. Coming back to the form puts the draft back, with a notice that says so and a button
  // that discards it; one started from an older revision comes back with that revision as the edit's base, so that
  // saving merges it with what was saved since (or shows where they clash) instead of overwriting it. "Save" marks
  // the draft as sent: a form that comes back (an error, a conflict, an ended session) keeps it, and it is dropped
  // once the save went through.
  function keepDraft(form) {
    var PREFIX = "wiki-draft:";
    var KEPT_DAYS = 30;
    var model = form.querySelector("template[data-draft-notice]");
    var store = (function () { try { return window.localStorage; } catch (e) { return null; } })();
    if (!store || !model || !model.content) { return; }
    var named = function (name) { return form.elements.namedItem(name); };
    var baseInput = named("base_revision");
    var sectionInput = named("section");
    var fields = Array.prototype.filter.call(form.elements, function (field) {
      return field.name && (field.tagName === "TEXTAREA" || (field.tagName === "INPUT" && /^(text|search|url|)$/.test(field.getAttribute("type") || "")));
    });
    var existingPage = form.dataset.draft !== "new-page";
    var page = PREFIX + form.dataset.draft + ":" + (sectionInput ? sectionInput.value : "") + ":";
    var keyFor = function (base) { return page + (base || ""); };
    var openingBase = baseInput ? baseInput.value : "";
    var values = function () {
      var found = {};
      fields.forEach(function (field) { found[field.name] = field.value; });
      return found;
    };
    var opening = values();
    var same = function (a, b) { return fields.every(function (field) { return (a[field.name] || "") === (b[field.name] || ""); }); };
    var read = function (key) {
      try { var draft = JSON.parse(store.getItem(key)); return draft && draft.fields ? draft : null; } catch (e) { return null; }
    };
    var write = function (key, draft) { try { store.setItem(key, JSON.stringify(draft)); } catch (e) { /* full: the prompt on leaving still asks */ } };
    var keys = function (prefix) {
      var found = [];
      for (var i = 0; i < store.length; i += 1) {
        var key = store.key(i);
        if (key && key.indexOf(prefix) === 0) { found.push(key); }
      }
      return found;
    };
    // A form that opens holding text not saved yet (sent back by the server, or merged on an edit conflict) keeps it
    // as a draft even when nothing more is typed.
    var posted = form.hasAttribute("data-posted");
    var holdsUnsaved = posted || form.hasAttribute("data-unsaved");
    var submitted = false;
    var keep = function (sent) {
      if (submitted) { return; }
      var key = keyFor(baseInput ? baseInput.value : "");
      var now = values();
      if (!sent && !holdsUnsaved && same(now, opening) && (!baseInput || baseInput.value === openingBase)) {
        store.removeItem(key);
        return;
      }
      write(key, { fields: now, base: baseInput ? baseInput.value : "", saved: Date.now(), sent: !!sent });
    };

    var old = Date.now() - KEPT_DAYS * 24 * 60 * 60 * 1000;
    keys(PREFIX).forEach(function (key) {
      var draft = read(key);
      if (!draft || !(draft.saved > old)) { store.removeItem(key); }
    });
    var here = keyFor(openingBase);
    var waiting = [];
    keys(page).forEach(function (key) {
      var draft = read(key);
      if (!draft) { return; }
      if (draft.sent) {
        if (posted && key === here) {
          draft.sent = false;  // the form came back from the server: nothing was saved
          write(key, draft);
          return;
        }
        // The same revision still the latest and another text in the form: the save never reached the wiki.
        if (!(existingPage && key === here && !same(draft.fields, opening))) {
          store.removeItem(key);
          return;
        }
      }
      // What the form holds already has nothing to give back; from another revision, it is saved there.
      if (same(draft.fields, opening)) {
        if (key !== here) { store.removeItem(key); }
        return;
      }
      waiting.push({ key: key, draft: draft });
    });
    waiting.sort(function (a, b) { return b.draft.saved - a.draft.saved; });
    var restored = waiting[0];
    if (restored) {
      waiting.slice(1).forEach(function (other) { store.removeItem(other.key); });
      fields.forEach(function (field) {
        if (Object.prototype.hasOwnProperty.call(restored.draft.fields, field.name)) { field.value = restored.draft.fields[field.name]; }
      });
      var older = baseInput && restored.draft.base && restored.draft.base !== openingBase;
      if (older) { baseInput.value = restored.draft.base; }
      var notice = model.content.firstElementChild.cloneNode(true);
      notice.querySelector("[data-draft-older]").hidden = !older;
      var discard = notice.querySelector("[data-draft-discard]");
      discard.addEventListener("click", function () {
        fields.forEach(function (field) { field.value = opening[field.name]; });
        if (baseInput) { baseInput.value = openingBase; }
        keys(page).forEach(function (key) { store.removeItem(key); });
        notice.querySelector("[data-draft-restored]").hidden = true;
        notice.querySelector("[data-draft-discarded]").hidden = false;
        discard.parentNode.remove();
        var body = named("body");
        if (body) { body.dispatchEvent(new Event("input")); }
      });
      model.insertAdjacentElement("afterend", notice);
      var text = named("body");
      if (text) { text.dispatchEvent(new Event("input")); }
    } else if (holdsUnsaved) {
      keep(false);
    }
    fields.forEach(function (field) { afterTyping(field, 400, function () { keep(false); }); });
    form.addEventListener("submit", function (event) {
      keep(!!(event.submitter && event.submitter.name === "save"));
      submitted = true;  // a pause in typing that ends while the form is on its way must not unmark it
    });
    // Back to this form from the browser's cache: what is typed now is kept again.
    window.addEventListener("pageshow", function (event) { if (event.persisted) { submitted = false; } });
  }
})();
