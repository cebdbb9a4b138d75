// OKF Index: the small script of the web page. Everything works without it;
// it adds search as you type, "/" to focus the search box, the copy button,
// the visit count and the failure reports of contract 4.4.
(function () {
  "use strict";

  var sent = {}; // reports by code: a page never floods the endpoint

  function report(code, phase, detail) {
    sent[code] = (sent[code] || 0) + 1;
    if (sent[code] > 3) return;
    var body = { code: code, phase: phase, path: location.pathname, visivel: document.visibilityState === "visible" };
    detail = detail || {};
    ["message", "stack", "source", "line", "column"].forEach(function (k) {
      if (detail[k] !== undefined && detail[k] !== null && detail[k] !== "") body[k] = detail[k];
    });
    if (typeof body.message === "string") body.message = body.message.slice(0, 2000);
    if (typeof body.stack === "string") body.stack = body.stack.slice(0, 12000);
    try {
      fetch("/api/erro-cliente", {
        method: "POST", keepalive: true, credentials: "omit",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify(body)
      }).catch(function () {});
    } catch (e) { /* nothing more to do */ }
  }

  window.addEventListener("error", function (ev) {
    var t = ev.target;
    if (t && t !== window && (t.src || t.href)) {
      report("UI-RECURSO-001", "resource", { source: String(t.src || t.href).split("?")[0] });
      return;
    }
    report("UI-JS-001", "global", {
      message: ev.message, stack: ev.error && ev.error.stack,
      source: ev.filename ? ev.filename.split("?")[0] : undefined, line: ev.lineno, column: ev.colno
    });
  }, true);
  window.addEventListener("unhandledrejection", function (ev) {
    var r = ev.reason || {};
    report("UI-PROMESSA-001", "promessa", { message: String(r.message || r), stack: r.stack });
  });
  document.addEventListener("securitypolicyviolation", function (ev) {
    report("UI-CSP-001", "csp", { message: ev.violatedDirective + " " + String(ev.blockedURI).split("?")[0] });
  });

  function countVisit() {
    fetch("/api/visit", {
      method: "POST", credentials: "omit",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify({ p: location.pathname })
    }).catch(function () {});
  }

  // Search as you type: the results fragment of the same query, swapped in.
  var form = document.getElementById("search");
  var timer = 0, inflight = null, lastQuery = null;

  function queryOf(f) {
    var parts = [];
    new FormData(f).forEach(function (v, k) {
      if (v !== "") parts.push(encodeURIComponent(k) + "=" + encodeURIComponent(v));
    });
    return parts.join("&");
  }

  function load(query, push) {
    if (query === lastQuery) return;
    lastQuery = query;
    if (inflight) inflight.abort();
    inflight = new AbortController();
    var busy = document.getElementById("results");
    if (busy) busy.setAttribute("aria-busy", "true");
    fetch("/results" + (query ? "?" + query : ""), { signal: inflight.signal, credentials: "omit" })
      .then(function (resp) {
        if (!resp.ok && resp.status !== 400) throw new Error("results answered " + resp.status);
        return resp.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("results"), old = document.getElementById("results");
        if (!fresh || !old) throw new Error("results fragment missing");
        old.replaceWith(document.importNode(fresh, true));
        // Only the count is announced, not the whole list.
        var announce = document.getElementById("announce");
        if (announce) announce.textContent = fresh.getAttribute("data-count") || "";
        if (push) history.pushState({ q: query }, "", "/" + (query ? "?" + query : ""));
        var q = form.elements.q.value.trim();
        document.title = (q ? q + " · " : "") + "OKF Index";
      })
      .catch(function (err) {
        if (err && err.name === "AbortError") return;
        lastQuery = null;
        report("UI-APP-001", "load_list", { message: String(err && err.message || err) });
        form.submit(); // the page without the script still works
      });
  }

  function setForm(query) {
    var params = new URLSearchParams(query);
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name) return;
      if (el.type === "checkbox") {
        var vals = [];
        params.getAll(el.name).forEach(function (v) { vals = vals.concat(v.split(",")); });
        el.checked = vals.indexOf(el.value) >= 0;
      } else if (el.tagName === "SELECT" || el.type === "search") {
        el.value = params.get(el.name) || "";
      }
    });
  }

  // On a phone the filters fold behind their button unless some are set.
  var filterBox = document.getElementById("filter-box");
  if (filterBox && !filterBox.hasAttribute("data-keep-open") && window.matchMedia("(max-width: 640px)").matches) {
    filterBox.open = false;
  }

  if (form) {
    lastQuery = location.search.replace(/^\?/, "");
    history.replaceState({ q: lastQuery }, "", location.href);
    form.elements.q.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { load(queryOf(form), true); }, 250);
    });
    form.addEventListener("change", function (ev) {
      if (ev.target === form.elements.q) return;
      clearTimeout(timer);
      load(queryOf(form), true);
    });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      clearTimeout(timer);
      load(queryOf(form), true);
    });
    window.addEventListener("popstate", function () {
      var query = location.search.replace(/^\?/, "");
      setForm(query);
      load(query, false);
    });
  }

  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "/" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var t = ev.target, tag = t && t.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) return;
    var box = document.getElementById("q");
    if (!box) { location.href = "/"; return; }
    ev.preventDefault();
    box.focus();
    box.select();
  });

  Array.prototype.forEach.call(document.querySelectorAll("button[data-copy]"), function (btn) {
    var src = document.getElementById(btn.getAttribute("data-copy"));
    if (!src || !navigator.clipboard) return;
    btn.hidden = false;
    var label = btn.innerHTML;
    btn.addEventListener("click", function () {
      navigator.clipboard.writeText(src.value).then(function () {
        btn.textContent = "Copied";
        setTimeout(function () { btn.innerHTML = label; }, 1500);
      }, function () { src.select(); });
    });
  });

  countVisit();
})();
