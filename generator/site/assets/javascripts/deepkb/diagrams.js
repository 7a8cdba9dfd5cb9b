/*
 * deepkb diagrams: draws the ```mermaid fences of a page as SVG with the mermaid copy this site ships
 * (assets/javascripts/vendor/mermaid/, loaded only on pages that hold a diagram), redraws them when the
 * reader switches between light and dark, and leaves a diagram that does not parse as its text with a note.
 * A diagram is drawn at its own size or shrunk to the column down to 3/4 of it (a wider one scrolls), and a button opens
 * it full size in a dialog over the page.
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
    // useMaxWidth false: mermaid would shrink a wide diagram to the column, its labels to a few pixels
    var natural = { useMaxWidth: false };
    mermaid.initialize({
      startOnLoad: false,
      securityLevel: "strict",
      theme: scheme(),
      fontFamily: "inherit",
      flowchart: natural,
      sequence: natural,
      class: natural,
    });
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
        fitToColumn(drawings[i].querySelector("svg"));
        drawings[i].insertAdjacentElement("afterbegin", fullSizeButton(drawings[i]));
        blocks[i].classList.add("deepkb-diagram--drawn");
      } catch (error) {
        markFailed(i, "the diagram library failed");
      }
    }
  }

  // a diagram a little wider than the column shrinks to fit it, never below FLOOR of its size (labels stay about
  // as large as the text); a wider one scrolls from there, and "Open full size" shows it whole
  var FLOOR = 0.75;

  function fitToColumn(svg) {
    if (!svg) {
      return;
    }
    var width = parseFloat(svg.getAttribute("width")) || svg.getBoundingClientRect().width;
    if (width > 0) {
      svg.style.maxWidth = "100%";
      svg.style.minWidth = Math.round(width * FLOOR) + "px";
    }
  }

  // one dialog for the page: the drawing's copy at full size, closed by its button, Escape or a click outside
  var dialog = null;

  function fullSizeButton(figure) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "deepkb-diagram-open md-button";
    button.textContent = "Open full size";
    button.addEventListener("click", function () {
      var svg = figure.querySelector("svg");
      if (svg) {
        openFullSize(svg);
      }
    });
    return button;
  }

  function openFullSize(svg) {
    if (!dialog) {
      dialog = document.createElement("dialog");
      dialog.className = "deepkb-diagram-dialog";
      dialog.setAttribute("aria-label", "Diagram, full size");
      var close = document.createElement("button");
      close.type = "button";
      close.className = "deepkb-diagram-close md-button";
      close.textContent = "Close";
      close.addEventListener("click", function () { dialog.close(); });
      dialog.appendChild(close);
      dialog.appendChild(document.createElement("div"));
      dialog.addEventListener("click", function (event) {
        if (event.target === dialog) {
          dialog.close();
        }
      });
      document.body.appendChild(dialog);
    }
    // the copy keeps the drawing's id: mermaid scopes the drawing's styles to it
    var copy = svg.cloneNode(true);
    var width = parseFloat(svg.getAttribute("width")) || svg.getBoundingClientRect().width;
    copy.style.minWidth = width + "px"; // as wide as the dialog allows, never narrower than drawn
    dialog.lastElementChild.replaceChildren(copy);
    dialog.showModal();
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
