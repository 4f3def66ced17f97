/* Holocron search: filters the A–Z list as you type. No dependencies. */
(function () {
  "use strict";

  var input = document.getElementById("search-input");
  var status = document.getElementById("search-status");
  var list = document.querySelector(".results ul, .results ol");
  if (!input || !list) return;

  var form = input.form;
  // The line after the form ("All N entries, A–Z.") describes the full list;
  // hide it while a query narrows the list down.
  var intro = form && form.nextElementSibling;
  if (!intro || intro.tagName !== "P" || intro.contains(list)) intro = null;
  var root = input.getAttribute("data-root") || "";
  var original = Array.prototype.slice.call(list.children);
  var index = null; // array of {name, kind, url} once index.json has loaded
  var showingIndex = false;

  function fold(text) {
    var s = String(text || "").toLowerCase();
    return s.normalize ? s.normalize("NFD").replace(/[\u0300-\u036f]/g, "") : s;
  }

  function itemName(li) {
    var link = li.querySelector("a");
    return (link || li).textContent;
  }

  function setStatus(query, count) {
    if (!query) status.textContent = "";
    else if (count === 0) status.textContent = "No results for \u201c" + query + "\u201d";
    else status.textContent = count + (count === 1 ? " result" : " results");
  }

  function restore() {
    if (showingIndex) {
      list.replaceChildren.apply(list, original);
      showingIndex = false;
    }
    original.forEach(function (li) { li.hidden = false; });
  }

  function renderIndex(q) {
    var rows = [];
    index.forEach(function (entry) {
      if (!entry || typeof entry.name !== "string" || typeof entry.url !== "string") return;
      if (/^[a-z][a-z0-9+.-]*:/i.test(entry.url) || entry.url.charAt(0) === "/") return;
      if (fold(entry.name).indexOf(q) === -1) return;
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = root + entry.url;
      a.textContent = entry.name;
      li.appendChild(a);
      if (entry.kind) li.appendChild(document.createTextNode(" \u2014 " + entry.kind));
      rows.push(li);
    });
    list.replaceChildren.apply(list, rows);
    showingIndex = true;
    return rows.length;
  }

  function filterPage(q) {
    var count = 0;
    original.forEach(function (li) {
      var match = fold(itemName(li)).indexOf(q) !== -1;
      li.hidden = !match;
      if (match) count += 1;
    });
    return count;
  }

  function update() {
    var query = input.value.trim();
    var q = fold(query);
    if (intro) intro.hidden = !!q;
    if (!q) {
      restore();
      setStatus("", 0);
      return;
    }
    setStatus(query, index ? renderIndex(q) : filterPage(q));
  }

  function remember() {
    try {
      var url = new URL(window.location.href);
      if (input.value.trim()) url.searchParams.set("q", input.value.trim());
      else url.searchParams.delete("q");
      window.history.replaceState(null, "", url.toString());
    } catch (e) { /* file:// or sandboxed: not important */ }
  }

  input.addEventListener("input", function () { update(); remember(); });
  if (form) form.addEventListener("submit", function (e) { e.preventDefault(); });

  var initial = new URLSearchParams(window.location.search).get("q");
  if (initial) input.value = initial;
  update();

  if (window.fetch && input.getAttribute("data-index")) {
    fetch(input.getAttribute("data-index"))
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (data) {
        if (!Array.isArray(data)) return;
        original.forEach(function (li) { li.hidden = false; });
        index = data;
        update();
      })
      .catch(function () { /* keep filtering the on-page list */ });
  }
})();
