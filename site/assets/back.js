/* Going back as the app does: a dialog's Close and a link that goes back to the page below
   (class "back") return in this tab's history when that leads where they point, so the page
   the reader came from is the one they reach and the history does not grow with each return.

   A back link goes back when the page before is its own target. Close goes back when the page
   before is a page of this site (data-root is the site's root from this page), the one that
   opened the dialog for this reader. Otherwise (a bookmark, another site, a new tab, or no
   JavaScript) each link leads where its href says; for Close, the page that first opened the
   dialog, which its label names. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !document.referrer || window.history.length < 2) return;
  var root, from;
  try {
    root = new URL(script.getAttribute("data-root") || "./", window.location.href).href;
    from = new URL(document.referrer).href.split("#")[0];
  } catch (error) {
    return;
  }
  var here = window.location.href.split("#")[0];
  if (from.indexOf(root) !== 0 || from === here) return;

  function goesBack(link, when) {
    link.addEventListener("click", function (event) {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      if (!when()) return;
      event.preventDefault();
      window.history.back();
    });
  }

  var close = document.querySelector(".dialog a.close");
  if (close) goesBack(close, function () { return true; });
  var backs = document.querySelectorAll("main a.back");
  for (var i = 0; i < backs.length; i++) {
    (function (link) {
      goesBack(link, function () { return link.href.split("#")[0] === from; });
    })(backs[i]);
  }
})();
