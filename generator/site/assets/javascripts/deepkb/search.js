/*
 * deepkb search: a search box in the Material header that opens Pagefind's UI over the index built into
 * this site's pagefind/ folder. Pagefind fetches only the index chunks a query needs, so the first result
 * costs a few hundred kilobytes however large the site is. "/" or "s" opens it, Escape closes it.
 * Nothing is fetched from another origin.
 */
(function () {
  "use strict";
  var bundle = new URL(siteBase().replace(/\/?$/, "/") + "pagefind/", location.href);
  if (bundle.origin !== location.origin) {
    return;
  }
  bundle = bundle.href;
  // Pagefind's API through deepkb's guard against answers for a shortened query word (deepkb/pagefind/)
  var guard = new URL("assets/javascripts/deepkb/pagefind/", bundle.replace(/pagefind\/$/, "")).href;
  var header = document.querySelector(".md-header__inner");
  if (!header) {
    return;
  }
  var ICON = "M9.5 3A6.5 6.5 0 0 1 16 9.5c0 1.61-.59 3.09-1.56 4.23l.27.27h.79l5 5-1.5 1.5-5-5v-.79l-.27-.27A6.52 " +
    "6.52 0 0 1 9.5 16 6.5 6.5 0 0 1 3 9.5 6.5 6.5 0 0 1 9.5 3m0 2C7 5 5 7 5 9.5S7 14 9.5 14 14 12 14 9.5 12 5 9.5 5";

  var button = document.createElement("button");
  button.type = "button";
  button.className = "deepkb-search-button";
  button.setAttribute("aria-label", "Search (press /)");
  button.title = "Search (press /)";
  var svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  var path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICON);
  svg.appendChild(path);
  var label = document.createElement("span");
  label.className = "deepkb-search-button__label";
  label.textContent = "Search";
  var key = document.createElement("kbd");
  key.textContent = "/";
  button.append(svg, label, key);
  var source = header.querySelector(".md-header__source");
  header.insertBefore(button, source);

  var dialog = document.createElement("dialog");
  dialog.className = "deepkb-search-dialog";
  dialog.setAttribute("aria-label", "Search this site");
  var mount = document.createElement("div");
  mount.id = "deepkb-search";
  dialog.appendChild(mount);
  document.body.appendChild(dialog);
  dialog.addEventListener("click", function (event) {
    if (event.target === dialog) {
      dialog.close(); // a click on the backdrop
    }
  });

  // Until Pagefind's UI has loaded, a plain field of our own takes the keys, so that nothing typed right
  // after "/" is lost; the UI then starts from what it holds.
  var early = document.createElement("input");
  early.type = "search";
  early.className = "deepkb-search-early";
  early.setAttribute("aria-label", "Search this site");
  early.placeholder = "Search this site";
  mount.appendChild(early);

  var loading = null;
  function loadUi() {
    if (loading) {
      return loading;
    }
    loading = new Promise(function (resolve, reject) {
      var style = document.createElement("link");
      style.rel = "stylesheet";
      style.href = bundle + "pagefind-ui.css";
      document.head.appendChild(style);
      var ui = document.createElement("script");
      ui.src = bundle + "pagefind-ui.js";
      ui.onload = function () {
        otherLanguages().then(function (merged) {
          var typed = early.value;
          var hadFocus = document.activeElement === early;
          early.remove();
          new window.PagefindUI({
            element: "#deepkb-search",
            bundlePath: guard,
            mergeIndex: merged,
            showImages: false,
            showSubResults: true,
            resetStyles: false,
            autofocus: true,
            translations: { placeholder: "Search this site" },
          });
          var input = mount.querySelector("input");
          if (input && typed) {
            input.value = typed;
            input.dispatchEvent(new Event("input", { bubbles: true }));
          }
          if (input && hadFocus) {
            input.focus();
          }
          resolve();
        });
      };
      ui.onerror = function () {
        mount.textContent = "Search is not available: this site was built without its search index.";
        reject(new Error("pagefind-ui.js did not load"));
      };
      document.head.appendChild(ui);
    });
    return loading;
  }

  // Pagefind keeps one index per page language and searches the one of the page it runs on; the site's other
  // languages are merged in, so a Chinese query finds Chinese pages from an English page and the reverse.
  // The bundle is named with a trailing "./" here: Pagefind skips a merge whose address is a prefix of its
  // primary's, and every fetch resolves the dot segment to the same folder.
  function otherLanguages() {
    var own = (document.documentElement.getAttribute("lang") || "").toLowerCase().split("-")[0];
    return fetch(bundle + "pagefind-entry.json").then(function (response) {
      return response.json();
    }).then(function (entry) {
      return Object.keys(entry.languages || {}).filter(function (language) {
        return language !== own;
      }).map(function (language) {
        return { bundlePath: bundle + "./", language: language };
      });
    }).catch(function () {
      return [];
    });
  }

  function open() {
    if (!dialog.open) {
      dialog.showModal();
    }
    var input = mount.querySelector("input");
    if (input) {
      input.focus();
    }
    loadUi().catch(function () {});
  }

  button.addEventListener("click", open);
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    // only fields that take text keep the key; a focused toggle or checkbox (the theme switch) does not
    var textInput = target && target.tagName === "INPUT" && !/^(checkbox|radio|button|submit|reset|range|color)$/.test(target.type);
    var typing = target && (target.isContentEditable || textInput || /^(TEXTAREA|SELECT)$/.test(target.tagName));
    if (typing || event.ctrlKey || event.metaKey || event.altKey || dialog.open) {
      return;
    }
    if (event.key === "/" || event.key === "s" || event.key === "S") {
      event.preventDefault();
      event.stopPropagation();
      open();
    }
  }, true);

  // The site's base path from the theme's own configuration: the <script type="application/json"> that
  // Material writes, never just the first element with that id (page content could hold one), and only a
  // relative or site-absolute path (a scheme, "//host" or "/\host" would load the search UI from elsewhere).
  function siteBase() {
    var scripts = document.querySelectorAll("script#__config");
    for (var i = 0; i < scripts.length; i++) {
      if (scripts[i].type === "application/json") {
        try {
          var base = JSON.parse(scripts[i].textContent).base;
          if (typeof base === "string" && !/^[\s\x00-\x1f]*([a-z][a-z0-9+.-]*:|[\/\\]{2})/i.test(base.replace(/[\t\n\r]/g, ""))) {
            return base || ".";
          }
        } catch (error) {
          // a broken configuration is treated as none
        }
        return ".";
      }
    }
    return ".";
  }
})();
