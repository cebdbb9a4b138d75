// OKF Index, full variant: the script of the account and credit pages.
// Account: the CSRF bootstrap, creating a key (its secret shown once, with
// a copy button) and revoking one, through the JSON routes; the list is
// server-rendered and refreshed from the page itself. Credit: a token's
// balance (the token only in the X-Credito header, kept nowhere), and the
// payment requirements of a package, whose view signals POST
// /api/pagamento/aberto once each time it opens. Failures are reported by
// app.js's handlers (uncaught errors and rejections).
(function () {
  "use strict";

  function $(id) { return document.getElementById(id); }

  function show(el, text) {
    el.textContent = text || "";
  }

  // readJSON reads an answer's JSON body, or null when it has none.
  function readJSON(resp) {
    return resp.text().then(function (t) {
      try { return t ? JSON.parse(t) : null; } catch (e) { return null; }
    });
  }

  // --- Account page ---------------------------------------------------

  var account = $("account");
  var csrf = null;

  // What each error name of the key routes means for the person reading.
  var keyErrors = {
    reauth_required: "Creating a key needs a sign-in within the last 5 minutes. Sign in again at the house's identity service (outside OKF Index), then retry here.",
    key_limit_reached: "You already have the most live keys allowed (10). Revoke one below, then create the new one.",
    organization_mfa_required: "An organization key needs a second factor (2FA) in this session. Sign in again at the house with your second factor, then retry; or create a key of your account.",
    organization_forbidden: "Only an owner or admin of an organization with OKF Index enabled can create its keys.",
    invalid_organization: "That organization is not one of yours.",
    invalid_session: "You are not signed in, or your session ended. Sign-in happens at the house's identity service, outside OKF Index: sign in there, then reload this page.",
    invalid_csrf: "This page's security token is no longer valid. Reload the page, then retry.",
    invalid_origin: "The request did not come from this site's own page. Reload the page, then retry.",
    auth_unavailable: "The house's identity service cannot be reached just now; your session is kept. Retry in a minute.",
    key_not_found: "That key no longer exists; the list is refreshed."
  };

  function bootstrap() {
    return fetch("/api/auth/bootstrap", { credentials: "same-origin", cache: "no-store" })
      .then(function (resp) {
        return readJSON(resp).then(function (body) {
          if (!resp.ok || !body || !body.csrf) throw apiFailure(resp, body);
          csrf = body.csrf;
          return csrf;
        });
      });
  }

  function apiFailure(resp, body) {
    var err = new Error((body && body.message) || ("The service answered " + resp.status + "."));
    err.api = true;
    err.status = resp.status;
    err.name_ = (body && body.error) || "";
    err.detail = (body && body.message) || "";
    return err;
  }

  // write sends a session write with the CSRF token; a token refused as
  // stale is renewed once.
  function write(path, body, retried) {
    var ready = csrf ? Promise.resolve(csrf) : bootstrap();
    return ready.then(function (token) {
      return fetch(path, {
        method: "POST", credentials: "same-origin", cache: "no-store",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": token },
        body: JSON.stringify(body)
      });
    }).then(function (resp) {
      return readJSON(resp).then(function (json) {
        if (resp.ok) return json;
        var err = apiFailure(resp, json);
        if (err.name_ === "invalid_csrf" && !retried) {
          csrf = null;
          return write(path, body, true);
        }
        throw err;
      });
    });
  }

  function explain(err) {
    if (!err || !err.api) return "The request could not be sent: check your connection and retry.";
    var text = keyErrors[err.name_] || err.detail || ("The service answered " + err.status + ".");
    return text + (err.name_ ? " (" + err.name_ + ")" : "");
  }

  // refreshKeys swaps in the key list as the server now renders it
  // (GET /account/keys, the list part of the page alone).
  function refreshKeys(status) {
    return fetch("/account/keys", { credentials: "same-origin", cache: "no-store" })
      .then(function (resp) {
        if (!resp.ok) throw new Error("the key list answered " + resp.status);
        return resp.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("keys"), old = $("keys");
        if (!fresh || !old) throw new Error("key list missing");
        old.replaceWith(document.importNode(fresh, true));
        wireRevokes();
        show($("keys-status"), status);
      });
  }

  function wireRevokes() {
    Array.prototype.forEach.call(document.querySelectorAll("#keys button.revoke"), function (btn) {
      btn.hidden = false;
      var timer = 0;
      var label = btn.getAttribute("aria-label");
      btn.addEventListener("click", function () {
        if (!btn.classList.contains("armed")) {
          // A first press arms the button; a second within 5 s revokes.
          btn.classList.add("armed");
          btn.textContent = "Press again to revoke";
          btn.setAttribute("aria-label", "Press again to revoke: " + label.replace(/^Revoke /, ""));
          timer = setTimeout(function () {
            btn.classList.remove("armed");
            btn.textContent = "Revoke";
            btn.setAttribute("aria-label", label);
          }, 5000);
          return;
        }
        clearTimeout(timer);
        btn.disabled = true;
        show($("key-error"), "");
        write("/api/account/keys/revoke", { id: btn.getAttribute("data-id") })
          .then(function () { return refreshKeys("Key revoked."); })
          .catch(function (err) {
            show($("key-error"), explain(err));
            btn.disabled = false;
            if (err && err.name_ === "key_not_found") return refreshKeys("");
          });
      });
    });
  }

  function hideSecret() {
    $("new-secret").value = "";
    show($("copy-state"), "");
    $("key-secret").hidden = true;
  }

  if (account) {
    var form = $("key-create");
    form.hidden = false;
    wireRevokes();
    bootstrap().catch(function (err) { show($("key-error"), explain(err)); });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var submit = form.querySelector("button[type=submit]");
      var picked = form.querySelector("input[name=org]:checked");
      var org = picked && picked.value ? picked.value : null;
      show($("key-error"), "");
      submit.disabled = true; // a shown secret stays until a new one replaces it
      write("/api/account/keys/create", { name: form.elements.name.value, organizationId: org })
        .then(function (created) {
          show($("copy-state"), "");
          $("new-secret").value = created.secret; // in the page only, never stored
          $("key-secret").hidden = false;
          $("key-secret").focus();
          form.reset();
          return refreshKeys("Key " + created.key.name + " created.");
        })
        .catch(function (err) { show($("key-error"), explain(err)); })
        .then(function () { submit.disabled = false; });
    });
    $("copy-secret").addEventListener("click", function () {
      var box = $("new-secret");
      var done = function () { show($("copy-state"), "Copied to the clipboard."); };
      var fallback = function () {
        box.select();
        var ok = false;
        try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
        show($("copy-state"), ok ? "Copied to the clipboard." : "Selected: press Ctrl+C (or ⌘C) to copy.");
      };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(box.value).then(done, fallback);
      } else {
        fallback();
      }
    });
    $("secret-done").addEventListener("click", function () {
      hideSecret();
      form.elements.name.focus();
    });
  }

  // --- Credit page ----------------------------------------------------

  var balanceForm = $("credit-balance");
  var buyForm = $("credit-buy");

  var creditErrors = {
    invalid_credit: "That token is unknown. Check it was copied whole: cred_ and 43 characters.",
    invalid_package: "Choose a package of 1, 5, 10 or 25 USD.",
    payment_unavailable: "Payments are not available on this deployment just now; nothing was charged."
  };

  function creditMessage(err) {
    if (!err || !err.api) return "The request could not be sent: check your connection and retry.";
    return (creditErrors[err.name_] || err.detail || ("The service answered " + err.status + ".")) +
      (err.name_ ? " (" + err.name_ + ")" : "");
  }

  // when writes an RFC 3339 UTC time as the pages show times.
  function when(iso) {
    return String(iso || "").replace("T", " ").replace(/Z$/, " UTC");
  }

  function cell(row, text) {
    var td = document.createElement("td");
    td.textContent = text;
    row.appendChild(td);
  }

  if (balanceForm) {
    balanceForm.hidden = false;
    balanceForm.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var token = $("credit-token").value.trim();
      show($("credit-error"), "");
      $("credit-result").hidden = true;
      if (token.indexOf("cred_") !== 0) {
        show($("credit-error"), "A credit token starts with cred_.");
        return;
      }
      fetch("/api/credito", { credentials: "omit", cache: "no-store", headers: { "X-Credito": token } })
        .then(function (resp) {
          return readJSON(resp).then(function (body) {
            if (!resp.ok || !body) throw apiFailure(resp, body);
            return body;
          });
        })
        .then(function (b) {
          show($("saldo-usd"), b.saldo_usd);
          show($("saldo-micros"), String(b.saldo_micros));
          show($("criado-em"), when(b.criado_em));
          var tbody = $("movements");
          tbody.textContent = "";
          (b.movimentos || []).forEach(function (m) {
            var tr = document.createElement("tr");
            cell(tr, when(m.em));
            cell(tr, m.tipo === "debito" ? "debit" : "credit");
            cell(tr, (m.tipo === "debito" ? "-" : "+") + m.valor_usd);
            cell(tr, m.produto);
            cell(tr, m.recurso);
            tbody.appendChild(tr);
          });
          $("credit-result").hidden = false;
          $("credit-result").focus();
        })
        .catch(function (err) { show($("credit-error"), creditMessage(err)); });
    });
  }

  var networks = {
    "base": "Base (mainnet)",
    "base-sepolia": "Base Sepolia (test network: test USDC, no real money)"
  };

  // usdc writes atomic units (6 decimals) as a USDC amount.
  function usdc(atomic) {
    var s = String(atomic || "0").replace(/^0+(?=\d)/, "");
    while (s.length < 7) s = "0" + s;
    return s.slice(0, -6) + "." + s.slice(-6);
  }

  function fact(dl, term, value, code) {
    var dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = term;
    if (code) {
      var c = document.createElement("code");
      c.textContent = value;
      dd.appendChild(c);
    } else {
      dd.textContent = value;
    }
    dl.appendChild(dt);
    dl.appendChild(dd);
  }

  var payView = $("pay-view");

  // signalOpened tells the service the view opened (contract 4.4): same
  // origin, the browser adds Origin and Sec-Fetch-Site.
  function signalOpened() {
    fetch("/api/pagamento/aberto", {
      method: "POST", credentials: "omit", cache: "no-store", keepalive: true,
      headers: { "X-House-Payment-View": "1" }
    }).catch(function () { /* a lost signal is only a count */ });
  }

  function showRequirements(usd, body) {
    var box = $("pay-accepts");
    box.textContent = "";
    var accepts = (body && body.accepts) || [];
    show($("pay-intro"), "To buy " + usd + " USD of credit, pay one of these offers (" + accepts.length + "):");
    accepts.forEach(function (a) {
      var dl = document.createElement("dl");
      dl.className = "facts accept";
      fact(dl, "Network", networks[a.network] || a.network);
      fact(dl, "Asset", ((a.extra && a.extra.name) || "USDC") + " at " + a.asset, false);
      fact(dl, "Amount", usdc(a.maxAmountRequired) + " USDC (" + a.maxAmountRequired + " atomic units)");
      fact(dl, "Pay to", a.payTo, true);
      fact(dl, "Scheme", a.scheme);
      if (a.maxTimeoutSeconds) fact(dl, "Time limit", a.maxTimeoutSeconds + " seconds to complete the payment");
      box.appendChild(dl);
    });
    show($("pay-call"), "POST " + ((accepts[0] && accepts[0].resource) || ("/api/credito?usd=" + usd)));
    var opening = payView.hidden;
    payView.hidden = false;
    payView.focus();
    if (opening) signalOpened(); // once per opening, not per package shown
  }

  if (buyForm) {
    buyForm.hidden = false;
    buyForm.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var picked = buyForm.querySelector("input[name=usd]:checked");
      var usd = picked ? picked.value : "1";
      show($("buy-error"), "");
      fetch("/api/credito?usd=" + encodeURIComponent(usd), { method: "POST", credentials: "omit", cache: "no-store" })
        .then(function (resp) {
          return readJSON(resp).then(function (body) {
            if (resp.status !== 402 || !body || !body.accepts) throw apiFailure(resp, body);
            showRequirements(usd, body);
          });
        })
        .catch(function (err) { show($("buy-error"), creditMessage(err)); });
    });
    $("pay-close").addEventListener("click", function () {
      payView.hidden = true;
      buyForm.querySelector("button[type=submit]").focus();
    });
  }
})();
