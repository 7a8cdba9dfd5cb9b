/*
 * deepkb tables: a table too wide for the column lets the long names in its cells (code, paths, identifiers in
 * prose) break at their seams, after a dot, a slash, an underscore or a colon and before the capital of a
 * camel-case word ("WithApolloSandbox|HideCookieToggle", "graph/|playground/|apollo_|sandbox_|playground.go"),
 * never elsewhere inside a word: its description column keeps its room and the table fits. One that still does
 * not fit scrolls in Material's wrapper as before. Copying a cell copies the name whole (<wbr> adds nothing).
 */
(function () {
  "use strict";
  var SEAM = /[./_:]+(?=[^./_:])|[a-z0-9](?=[A-Z][a-z])/g;
  var LONG_WORD = /\S{12,}/g; // a shorter name never holds the table wide

  function withSeams(node) {
    var text = node.nodeValue;
    var marked = text.replace(LONG_WORD, function (word) {
      return word.replace(SEAM, "$&\u0000");
    });
    if (marked === text) {
      return;
    }
    var pieces = document.createDocumentFragment();
    marked.split("\u0000").forEach(function (part, index) {
      if (index) {
        pieces.appendChild(document.createElement("wbr"));
      }
      pieces.appendChild(document.createTextNode(part));
    });
    node.parentNode.replaceChild(pieces, node);
  }

  function textsOf(element) {
    var walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    var found = [];
    while (walker.nextNode()) {
      found.push(walker.currentNode);
    }
    return found;
  }

  // the column's width, whether or not Material has wrapped the table in its scroll box yet (its bundle does
  // that after this script has run)
  function room(table) {
    var column = table.closest(".md-typeset");
    if (!column) {
      return Infinity;
    }
    var style = window.getComputedStyle(column);
    return column.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  }

  function fit(table) {
    if (table.scrollWidth <= room(table)) {
      return;
    }
    textsOf(table).forEach(withSeams);
  }

  Array.prototype.forEach.call(document.querySelectorAll("article table"), fit);
})();
