/*
 * deepkb diagrams: draws the ```mermaid fences of a page as SVG with the mermaid copy this site ships
 * (assets/javascripts/vendor/mermaid/, loaded only on pages that hold a diagram), redraws them when the
 * reader switches between light and dark, and leaves a diagram that does not parse as its text with a note.
 * Every failure stays inside this file: search, the theme toggle and the other scripts never depend on it.
 */
(function () {
  "use strict";
  var SELECTOR = "pre.deepkb-diagram";
  var script = document.currentScript;
  var blocks = Array.prototype.slice.call(document.querySelectorAll(SELECTOR));
  if (!blocks.length || !script) {
    return;
  }
  // mermaid obeys `%%{init: …}%%` directives and a leading `---` frontmatter block (fonts, theme CSS, URLs
  // that fetch): the page sanitizer removes them, and so does this in case a page was built without it
  var CONFIG = /%%\{[\s\S]*?(?:\}%%|$)|^\s*---[\s\S]*?(?:\n---|$)/g;
  var sources = blocks.map(function (pre) { return pre.textContent.replace(CONFIG, ""); });
  var drawings = blocks.map(function (pre) {
    var figure = document.createElement("div");
    figure.className = "deepkb-diagram-drawn";
    pre.insertAdjacentElement("afterend", figure);
    return figure;
  });
  var generation = 0;

  function scheme() {
    return document.body.getAttribute("data-md-color-scheme") === "slate" ? "dark" : "default";
  }

  function markFailed(index, reason) {
    var pre = blocks[index];
    pre.classList.add("deepkb-diagram--failed");
    drawings[index].replaceChildren();
    if (!pre.previousElementSibling || !pre.previousElementSibling.classList.contains("deepkb-diagram-note")) {
      var note = document.createElement("p");
      note.className = "deepkb-diagram-note";
      note.textContent = "This diagram could not be drawn (" + reason + "); its source is shown instead.";
      pre.insertAdjacentElement("beforebegin", note);
    }
  }

  async function drawAll() {
    var mermaid = window.mermaid;
    var round = ++generation;
    mermaid.initialize({ startOnLoad: false, securityLevel: "strict", theme: scheme(), fontFamily: "inherit" });
    for (var i = 0; i < blocks.length; i++) {
      if (round !== generation) {
        return; // the theme changed again while drawing: the newer round redraws everything
      }
      try {
        var valid = await mermaid.parse(sources[i], { suppressErrors: true });
        if (!valid) {
          markFailed(i, "not valid mermaid");
          continue;
        }
        var result = await mermaid.render("deepkb-diagram-" + round + "-" + i, sources[i]);
        drawings[i].innerHTML = result.svg;
        blocks[i].classList.add("deepkb-diagram--drawn");
      } catch (error) {
        markFailed(i, "the diagram library failed");
      }
    }
  }

  function start() {
    drawAll();
    new MutationObserver(function () { drawAll(); }).observe(document.body, {
      attributes: true,
      attributeFilter: ["data-md-color-scheme"],
    });
  }

  var library = document.createElement("script");
  library.src = new URL("../vendor/mermaid/mermaid.min.js", script.src).href;
  library.onload = start;
  library.onerror = function () {
    blocks.forEach(function (_, index) { markFailed(index, "the diagram library did not load"); });
  };
  document.head.appendChild(library);
})();
