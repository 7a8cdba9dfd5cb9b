/*
 * Pagefind's search API as deepkb's search UI loads it (its bundlePath points here). When no word of a
 * query is in the index, Pagefind shortens the word until one is ("alrus" becomes "a") and answers for
 * that; here such a query answers "no results". A Chinese term of the query that the knowledge base's
 * glossary knows (../glossary.json, written at build time) is also searched in English, as `deepkb ask`
 * does: 中间件 finds the pages about middleware, after the pages that say 中间件. Everything else is
 * Pagefind's own, from the site's bundle.
 */
import * as pagefind from "../../../../pagefind/pagefind.js";

export const options = pagefind.options;
export const init = pagefind.init;
export const destroy = pagefind.destroy;
export const filters = pagefind.filters;
export const preload = pagefind.preload;
export const mergeIndex = pagefind.mergeIndex;

// Latin words of three letters or more are checked; shorter ones, quoted (exact) queries and Chinese text
// are left as Pagefind answers them.
var CHECKED = /^[\p{Script=Latin}\d_]{3,}$/u;

export async function search(term, options) {
  return withTwins(term, options, await checked(term, await pagefind.search(term, options)));
}

export async function debouncedSearch(term, options, timeout) {
  var found = await pagefind.debouncedSearch(term, options, timeout);
  return found ? withTwins(term, options, await checked(term, found)) : found; // null: a newer query won
}

var glossary = null;
function loadGlossary() {
  if (!glossary) {
    glossary = fetch(new URL("../glossary.json", import.meta.url)).then(function (response) {
      return response.ok ? response.json() : {};
    }).then(function (data) {
      return new Map(Object.entries((data && data.zh_en) || {}));
    }).catch(function () {
      return new Map();
    });
  }
  return glossary;
}

var HAN_RUN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/g;

// The English twin of every glossary term in the query's Chinese runs, longest terms first
// (交易策略 stays whole), as kb/glossary.py segments a run.
export function englishTwins(term, table) {
  var longest = 1;
  table.forEach(function (spellings, zh) { longest = Math.max(longest, zh.length); });
  var twins = [];
  (String(term || "").normalize("NFKC").match(HAN_RUN) || []).forEach(function (run) {
    for (var i = 0; i < run.length;) {
      var size = Math.min(longest, run.length - i);
      while (size > 1 && !table.has(run.slice(i, i + size))) {
        size -= 1;
      }
      var spellings = table.get(run.slice(i, i + size));
      if (spellings && spellings.length && (size > 1 || run.length === 1)) {
        twins.push(String(spellings[0]));
      }
      i += size;
    }
  });
  return twins.filter(function (twin, index) { return twins.indexOf(twin) === index; });
}

// `found` for the query as typed, then what each English twin finds that it did not, in that order.
async function withTwins(term, options, found) {
  if (!found || !found.results) {
    return found;
  }
  var twins = englishTwins(term, await loadGlossary());
  if (!twins.length) {
    return found;
  }
  var merged = found.results.slice();
  var seen = new Set(merged.map(function (result) { return result.id; }));
  for (var i = 0; i < twins.length; i++) {
    var more = await checked(twins[i], await pagefind.search(twins[i], options));
    ((more && more.results) || []).forEach(function (result) {
      if (!seen.has(result.id)) {
        seen.add(result.id);
        merged.push(result);
      }
    });
  }
  return Object.assign({}, found, { results: merged, unfilteredResultCount: merged.length });
}

async function checked(term, found) {
  var words = String(term || "").toLowerCase().split(/\s+/).filter(function (word) {
    return CHECKED.test(word);
  });
  if (!found || !found.results || !found.results.length || !words.length || /"/.test(term)) {
    return found;
  }
  var top = await found.results[0].data();
  var marked = (top.excerpt.match(/<mark>[^<]*<\/mark>/g) || []).map(function (mark) {
    return mark.slice(6, -7).toLowerCase();
  });
  var genuine = marked.some(function (mark) {
    return words.some(function (word) { return shares(mark, word); });
  });
  return genuine ? found : Object.assign({}, found, { results: [], unfilteredResultCount: 0 });
}

// A word found for a query word begins with at least its first three letters (a stem, an extension or the
// word itself): "tokenizers" finds "tokens", "tok" finds "tokenizer", "alrus" does not find "a".
function shares(found, word) {
  var letters = Math.min(3, word.length);
  return found.replace(/^[^\p{L}\d_]+/u, "").slice(0, letters) === word.slice(0, letters);
}
