/* A dialog's Close leads back to the page the reader came from: the page before it in this
   tab's history, when that is a page of this site (data-root is the site's root from this
   page). Otherwise (the dialog opened from a bookmark, another site or a new tab, or without
   JavaScript) Close leads where its href says: the page that first opened the dialog, which
   its label names. */
(function () {
  "use strict";
  var script = document.currentScript;
  var close = document.querySelector(".dialog a.close");
  if (!script || !close || !document.referrer || window.history.length < 2) return;
  var root, from;
  try {
    root = new URL(script.getAttribute("data-root") || "./", window.location.href).href;
    from = new URL(document.referrer);
  } catch (error) {
    return;
  }
  var here = window.location.href.split("#")[0];
  if (from.href.indexOf(root) !== 0 || from.href.split("#")[0] === here) return;
  close.addEventListener("click", function (event) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    window.history.back();
  });
})();
