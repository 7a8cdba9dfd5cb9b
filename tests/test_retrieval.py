"""The shared iterative-retrieval loop: stop rules, excludes, refinement and the lexical judge."""

from __future__ import annotations

from generator.retrieval.feedback import Judged, Query, iterative_retrieval, lexical_relevance, refine
from generator.retrieval.scoring import CorpusStats
from generator.text.words import tokens

DOCS = {
    "a": "The parser turns tokens into an expression tree.",
    "b": "Tokens come from the lexer; the lexer scans characters.",
    "c": "Expression trees are evaluated by the interpreter.",
    "d": "Unrelated notes about the weather.",
    "e": "The parser reports syntax errors with line numbers.",
    "f": "The lexer handles unicode identifiers.",
}


def _dispatch(query: Query) -> list[str]:
    return [k for k, text in DOCS.items() if any(t in text.lower() for t in query.terms)]


def _evaluate(query: Query, items):
    return [Judged(k, k, *lexical_relevance(query.terms, DOCS[k])) for k in items]


def test_goes_on_while_new_good_documents_appear_then_stops():
    calls = []
    batches = [["a", "b", "e"], ["f", "c"], ["d"]]  # cycle 2 brings a new good one (f), cycle 3 none

    def dispatch(query):
        return batches[query.cycle - 1]

    def evaluate(query, items):
        calls.append(list(items))
        return [Judged(k, k, 0.9 if k in "abef" else 0.5, "r") for k in items]

    result = iterative_retrieval(["parser", "lexer"], dispatch=dispatch, key=str, evaluate=evaluate)
    assert calls == [["a", "b", "e"], ["f", "c"], ["d"]]
    assert "scored" in result.stopped_because and "no new one" in result.stopped_because
    assert sum(1 for j in result.kept if j.score >= 0.7) == 4


def test_stops_when_enough_are_good_and_a_cycle_adds_no_good_one():
    def dispatch(query):
        return [["a", "b", "e"], ["c"], ["f"]][query.cycle - 1]

    def evaluate(query, items):
        return [Judged(k, k, 0.9 if k != "c" else 0.4, "r") for k in items]

    result = iterative_retrieval(["parser"], dispatch=dispatch, key=str, evaluate=evaluate)
    assert len(result.cycles) == 2 and "f" not in {j.key for j in result.kept}


def test_feedback_adds_the_words_that_set_good_documents_apart():
    docs = {
        "g1": "Pinning keeps a future in place; a pinned future never moves.",
        "g2": "A pinned future is polled by the executor; pinning is required.",
        "w1": "The executor runs tasks; a future is a value.",
        "w2": "A future value and an executor, again.",
    }

    def dispatch(query):
        return list(docs) if query.cycle == 1 else []

    def evaluate(query, items):
        return [Judged(k, k, 0.9 if k.startswith("g") else 0.3, "r") for k in items]

    result = iterative_retrieval(
        ["future"], dispatch=dispatch, key=str, evaluate=evaluate, text_of=lambda k: docs[k]
    )
    refined = result.cycles[1].terms
    assert "pinned" in refined or "pinning" in refined  # shared by the good ones only
    assert "executor" not in refined  # in good and weak alike


def test_low_scores_are_excluded_and_never_dispatched_again():
    seen_twice = []
    dispatched: set[str] = set()

    def dispatch(query):
        items = list(DOCS)
        seen_twice.extend(k for k in items if k in dispatched and k not in query.excludes)
        dispatched.update(items)
        return items

    def evaluate(query, items):
        return [Judged(k, k, 0.1 if k == "d" else 0.5, "r") for k in items]

    result = iterative_retrieval(["parser"], dispatch=dispatch, key=str, evaluate=evaluate)
    assert "d" not in {j.key for j in result.kept}
    assert result.cycles[1].judged == []  # everything was judged in cycle 1; nothing is re-judged
    assert result.stopped_because == "no new candidates"


def test_at_most_three_cycles_and_refinement_adds_terms():
    terms_seen = []

    def dispatch(query):
        terms_seen.append(list(query.terms))
        # one new document per cycle, so the loop never runs dry before the cap
        return [sorted(DOCS)[query.cycle - 1]]

    def evaluate(query, items):
        return [Judged(k, k, 0.6, "partly") for k in items]

    result = iterative_retrieval(
        ["expression"], dispatch=dispatch, key=str, evaluate=evaluate, text_of=lambda k: DOCS[k]
    )
    assert len(result.cycles) == 3
    assert result.stopped_because == "reached 3 cycles"
    assert len(terms_seen[1]) > len(terms_seen[0])  # refined with words from the judged document
    trace = result.trace()
    assert [c["cycle"] for c in trace["cycles"]] == [1, 2, 3]


def test_lexical_relevance_orders_by_coverage():
    full, _ = lexical_relevance(["parser", "syntax errors"], DOCS["e"])
    part, reason = lexical_relevance(["parser", "syntax errors"], DOCS["a"])
    none, _ = lexical_relevance(["parser"], DOCS["d"])
    assert full > part > none == 0.0
    assert "parser" in reason


def test_end_to_end_with_lexical_judge():
    result = iterative_retrieval(
        ["parser", "lexer", "tokens"], dispatch=_dispatch, key=str, evaluate=_evaluate
    )
    keys = [j.key for j in result.kept]
    assert "d" not in keys
    assert keys[0] in {"a", "b"}


def test_lexical_judge_weighs_a_rare_term_above_a_common_one():
    stats = CorpusStats()
    for key, text in DOCS.items():
        stats.add(key, {"body": tokens(text)})
    rare, _ = lexical_relevance(["parser", "unicode"], DOCS["f"], stats)  # unicode: one document
    common, _ = lexical_relevance(["parser", "unicode"], DOCS["a"], stats)  # parser: two documents
    assert rare > common > 0
    alone, _ = lexical_relevance(["parser", "unicode"], DOCS["f"])  # no collection: every term alike
    assert alone == lexical_relevance(["parser", "unicode"], DOCS["a"])[0]


def test_feedback_weighs_a_new_word_by_the_one_idf_of_every_ranking():
    # "alpha" is held by both good candidates but by a poor one too; "beacon" by one good candidate alone.
    # BM25's IDF (retrieval/scoring.idf) makes the rarer word the better addition to the query.
    texts = {"g1": "alpha beacon", "g2": "alpha", "b1": "alpha", "b2": "zephyr"}
    judged = [Judged(k, k, 0.9 if k.startswith("g") else 0.1, "r") for k in texts]
    refined = refine(Query(["parser"]), judged, text_of=texts.__getitem__, new_terms=1)
    assert refined.terms == ["parser", "beacon"]
    assert refined.excludes == set(texts) and refined.cycle == 2
