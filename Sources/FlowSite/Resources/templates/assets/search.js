/* FlowSite search: filters the site's search index as you type. No dependencies.
 *
 * The page's form holds an input with data-index (the index URL) and data-root (the site root
 * from this page). Until the index has loaded, and when it can't (file://), the script filters
 * the list already on the page. The matching itself, fold() and filter(), has no DOM and is
 * tested by running this file under Node.
 */
(function () {
  "use strict";

  // Lower case without accents: "Padmé" and "PADME" both read "padme". A final sigma reads as
  // any sigma, since lower-casing writes one only at the end of a word.
  function fold(text) {
    var s = String(text == null ? "" : text).toLowerCase().replace(/\u03c2/g, "\u03c3");
    return s.normalize ? s.normalize("NFD").replace(/[\u0300-\u036f]/g, "") : s;
  }

  // The entries whose title holds the query, in index order. Entries without a usable title or
  // with a URL that is not a path inside the site are never shown.
  function filter(entries, query) {
    var q = fold(String(query == null ? "" : query).trim());
    if (!q) return [];
    return entries.filter(function (entry) {
      if (!entry || typeof entry.title !== "string" || typeof entry.url !== "string") return false;
      if (/^[a-z][a-z0-9+.-]*:/i.test(entry.url) || entry.url.charAt(0) === "/") return false;
      return fold(entry.title).indexOf(q) !== -1;
    });
  }

  if (typeof module === "object" && module.exports) {
    module.exports = { fold: fold, filter: filter };
    return;
  }

  var input = document.getElementById("search-input");
  var status = document.getElementById("search-status");
  var list = document.querySelector(".results ul, .results ol");
  if (!input || !list) return;

  var form = input.form;
  // The line after the form ("All N entries, A–Z.") describes the full list; hide it while a
  // query narrows the list down.
  var intro = form && form.nextElementSibling;
  if (!intro || intro.tagName !== "P" || intro.contains(list)) intro = null;
  var root = input.getAttribute("data-root") || "";
  var original = Array.prototype.slice.call(list.children);
  var index = null; // the entries once the index has loaded
  var showingIndex = false;

  // The page's language's words, when they are not these English ones: data-messages holds
  // {"noResults": "…{query}…", "results": {"one": "…{count}…", "other": …}, "locale": "en-GB"}.
  var messages = { noResults: "No results for \u201c{query}\u201d", results: { one: "{count} result", other: "{count} results" } };
  try {
    var given = JSON.parse(input.getAttribute("data-messages") || "null");
    if (given && typeof given.noResults === "string" && given.results && typeof given.results.other === "string") messages = given;
  } catch (e) { /* keep English */ }
  var language = messages.locale || document.documentElement.lang || "en";
  var plural = window.Intl && Intl.PluralRules ? new Intl.PluralRules(language) : null;
  var numbers = window.Intl && Intl.NumberFormat ? new Intl.NumberFormat(language) : null;

  function fill(text, name, value) { return text.split("{" + name + "}").join(value); }

  function setStatus(query, count) {
    if (!query) status.textContent = "";
    else if (count === 0) status.textContent = fill(messages.noResults, "query", query);
    else {
      // The count's CLDR plural form, as the page's language picks it (its "other" if absent).
      var form = plural ? plural.select(count) : (count === 1 ? "one" : "other");
      var text = messages.results[form] || messages.results.other;
      status.textContent = fill(text, "count", numbers ? numbers.format(count) : String(count));
    }
  }

  function restore() {
    if (showingIndex) {
      list.replaceChildren.apply(list, original);
      showingIndex = false;
    }
    original.forEach(function (li) { li.hidden = false; });
  }

  function renderIndex(query) {
    var rows = filter(index, query).map(function (entry) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = root + entry.url;
      a.textContent = entry.title;
      li.appendChild(a);
      if (typeof entry.section === "string" && entry.section) {
        li.appendChild(document.createTextNode(" \u2014 " + entry.section));
      }
      return li;
    });
    list.replaceChildren.apply(list, rows);
    showingIndex = true;
    return rows.length;
  }

  function filterPage(query) {
    var q = fold(query);
    var count = 0;
    original.forEach(function (li) {
      var link = li.querySelector("a");
      var match = fold((link || li).textContent).indexOf(q) !== -1;
      li.hidden = !match;
      if (match) count += 1;
    });
    return count;
  }

  function update() {
    var query = input.value.trim();
    if (intro) intro.hidden = !!query;
    if (!fold(query)) {
      restore();
      setStatus("", 0);
      return;
    }
    setStatus(query, index ? renderIndex(query) : filterPage(query));
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
  // With the script, typing filters in place; without it, the form is a plain GET (?q=).
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
