// Live reload for `serve --watch`: the preview server adds this script to the pages it
// serves; the site's files never contain it.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !window.EventSource || !window.fetch) return;
  var root = script.src.replace(/__flowsite\/live-reload\.js(?:\?.*)?$/, "");
  var rootPath = new URL(root).pathname;
  var shown = script.getAttribute("data-build");
  var overlay = null;

  function connect() {
    var source = new EventSource(root + "__flowsite/events");
    source.addEventListener("hello", function (event) {
      var data = JSON.parse(event.data);
      // A page older than the site (rebuilt while it loaded, or a new server) reloads.
      if (data.build !== shown && reload(data.build)) return;
      showError(data.error);
    });
    source.addEventListener("reload", function (event) {
      var data = JSON.parse(event.data);
      if (data.css) {
        refreshStylesheets(data.build);
        shown = data.build;
        showError(null);
      } else {
        reload(data.build);
      }
    });
    source.addEventListener("build-error", function (event) {
      showError(JSON.parse(event.data).message);
    });
    source.onerror = function () {
      // The browser reconnects by itself unless the answer was wrong; then try again later.
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        setTimeout(connect, 1000);
      }
    };
  }

  // Reloads the page, or when the new site lacks it, opens the nearest page above it;
  // false when it already did for this build (a page that still looks old stays put).
  function reload(build) {
    try {
      if (sessionStorage.getItem("flowsite-reloaded") === build) return false;
      sessionStorage.setItem("flowsite-reloaded", build);
    } catch (e) {}
    (function attempt(path) {
      fetch(path, { method: "HEAD", cache: "no-store" }).then(function (response) {
        if (response.ok || path === rootPath) {
          if (path === location.pathname) location.reload(); else location.replace(path);
        } else {
          attempt(parent(path));
        }
      }, function () { location.reload(); });
    })(location.pathname);
    return true;
  }

  function parent(path) {
    var up = path.replace(/\/[^\/]*\/?$/, "/");
    return up === path || up.indexOf(rootPath) !== 0 ? rootPath : up;
  }

  function refreshStylesheets(build) {
    var links = document.querySelectorAll('link[rel="stylesheet"]');
    for (var i = 0; i < links.length; i++) {
      var url = new URL(links[i].href);
      if (url.origin !== location.origin) continue;
      url.searchParams.set("flowsite-build", build);
      links[i].href = url.href;
    }
  }

  function showError(message) {
    if (!message) {
      if (overlay) overlay.remove();
      overlay = null;
      return;
    }
    if (!overlay) {
      overlay = document.createElement("div");
      overlay.id = "flowsite-build-error";
      overlay.setAttribute("role", "alert");
      Object.assign(overlay.style, {
        position: "fixed", left: "0", right: "0", bottom: "0", maxHeight: "60vh", overflow: "auto",
        zIndex: "2147483647", padding: "1rem 1.25rem", background: "#2b0b0e", color: "#ffe3e3",
        borderTop: "4px solid #e5484d", boxShadow: "0 -4px 24px rgba(0, 0, 0, 0.4)",
        font: "14px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", textAlign: "left"
      });
      var title = document.createElement("strong");
      title.textContent = "Rebuild failed; still serving the previous site.";
      var dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.textContent = "Dismiss";
      Object.assign(dismiss.style, { float: "right", font: "inherit", cursor: "pointer" });
      dismiss.onclick = function () { showError(null); };
      var text = document.createElement("pre");
      Object.assign(text.style, { margin: "0.5rem 0 0", whiteSpace: "pre-wrap", font: "inherit", color: "inherit", background: "none" });
      overlay.appendChild(dismiss);
      overlay.appendChild(title);
      overlay.appendChild(text);
      (document.body || document.documentElement).appendChild(overlay);
    }
    overlay.querySelector("pre").textContent = message;
  }

  connect();
})();
