/*
 * Pagefind's search API as deepkb's search UI loads it (its bundlePath points here). When no word of a
 * query is in the index, Pagefind shortens the word until one is ("alrus" becomes "a") and answers for
 * that; here such a query answers "no results". Everything else is Pagefind's own, from the site's bundle.
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
  return checked(term, await pagefind.search(term, options));
}

export async function debouncedSearch(term, options, timeout) {
  return checked(term, await pagefind.debouncedSearch(term, options, timeout));
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
