"""URL canonicalization, SimHash distances and the dedupe pass."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from generator.topic.dedupe import canonical_url, dedupe, hamming, simhash

ARTICLE = (
    "Retrieval-augmented generation pairs a language model with a search index. At question time the system "
    "retrieves passages that look relevant, places them in the prompt, and asks the model to answer using "
    "only that evidence. The approach reduces hallucination on knowledge-intensive tasks, keeps answers "
    "current without retraining, and lets readers check each claim against its source. Its weak points are "
    "retrieval misses, passages that contradict one another, and prompts that grow too long for the model's "
    "context window, so production systems rerank, deduplicate and compress what they retrieve before "
    "generation. Evaluation usually measures answer accuracy together with citation precision and recall."
)
OTHER = (
    "The okapi is a forest giraffid native to the Democratic Republic of the Congo. It has striped legs like "
    "a zebra but is most closely related to the giraffe. Okapis are solitary, active during the day, and feed "
    "on leaves, buds, fruit and fungi. Their numbers are falling because of habitat loss and hunting, and the "
    "species is listed as endangered. Conservation work centres on the Okapi Wildlife Reserve, where rangers "
    "patrol against poaching and illegal mining, and on breeding programmes in zoos around the world."
)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "HTTP://WWW.Example.COM:80/a/b/?utm_source=x&b=2&a=1&fbclid=z#frag",
            "http://example.com/a/b?a=1&b=2",
        ),
        ("https://example.com:443/", "https://example.com/"),
        ("https://example.com", "https://example.com/"),
        ("https://example.com/a/./b/../c/", "https://example.com/a/c"),
        ("https://example.com:8443/%7Euser/", "https://example.com:8443/~user"),
        ("https://user:pw@example.com/x", "https://example.com/x"),
        (
            "https://example.com/p?gclid=1&ref=hn&utm_medium=m&q=search+term",
            "https://example.com/p?q=search+term",
        ),
        ("https://example.com/p?b=&a=2", "https://example.com/p?a=2&b="),
        ("  https://example.com./x  ", "https://example.com/x"),
        ("https://[2001:DB8::1]:443/x", "https://[2001:db8::1]/x"),
        ("file:///tmp/doc.md#section", "file:///tmp/doc.md"),
    ],
)
def test_canonical_url(url: str, expected: str) -> None:
    assert canonical_url(url) == expected


def test_canonical_url_keeps_meaningful_differences() -> None:
    assert canonical_url("https://example.com/a") != canonical_url("https://example.com/b")
    assert canonical_url("https://example.com/?page=1") != canonical_url("https://example.com/?page=2")
    assert canonical_url("https://example.com:8080/") != canonical_url("https://example.com/")


def test_simhash_small_edit_small_distance() -> None:
    one_word = ARTICLE.replace("usually", "often")
    two_words = one_word.replace("reduces hallucination", "lowers hallucination")
    assert hamming(simhash(ARTICLE), simhash(one_word)) <= 3  # within dedupe's default max_distance
    assert hamming(simhash(ARTICLE), simhash(two_words)) < hamming(simhash(ARTICLE), simhash(OTHER)) / 2
    assert hamming(simhash(ARTICLE), simhash(ARTICLE.upper() + "  ")) == 0  # normalization


def test_simhash_different_texts_large_distance() -> None:
    assert hamming(simhash(ARTICLE), simhash(OTHER)) >= 16
    assert 0 <= simhash(ARTICLE) < 2**64


def test_simhash_chinese() -> None:
    text = (
        "机器学习是人工智能的一个分支，研究计算机如何从数据中学习规律，并用这些规律对新的数据做出预测。" * 3
    )
    edited = text.replace("预测", "判断", 1)
    other = "长城是中国古代的军事防御工程，东起山海关，西至嘉峪关，全长两万多公里，是世界文化遗产。" * 3
    assert hamming(simhash(text), simhash(edited)) < hamming(simhash(text), simhash(other))
    assert hamming(simhash(text), simhash(other)) >= 16


@dataclass
class Item:
    url: str
    text: str


def test_dedupe_drops_url_and_near_duplicates() -> None:
    items = [
        Item("https://example.com/rag?utm_source=feed", ARTICLE),
        Item("https://www.example.com/rag#intro", "A different text, but the same page."),
        Item("https://mirror.example.net/copy", ARTICLE.replace("usually", "often")),
        Item("https://zoo.example/okapi", OTHER),
        Item("", "short"),
        Item("", "short"),  # too short to fingerprint: kept
    ]
    result = dedupe(items, key_text=lambda i: i.text, key_url=lambda i: i.url)
    assert [i.url for i in result.kept] == [
        "https://example.com/rag?utm_source=feed",
        "https://zoo.example/okapi",
        "",
        "",
    ]
    reasons = [
        (dropped.url, original.url, reason.split(" (")[0]) for dropped, original, reason in result.dropped
    ]
    assert reasons == [
        ("https://www.example.com/rag#intro", "https://example.com/rag?utm_source=feed", "same URL"),
        ("https://mirror.example.net/copy", "https://example.com/rag?utm_source=feed", "near-duplicate text"),
    ]
    assert len(result.kept) + len(result.dropped) == 6


def test_dedupe_max_distance_zero_keeps_edited_copies() -> None:
    items = [
        Item("https://a.example/", ARTICLE),
        Item("https://b.example/", ARTICLE.replace("usually", "often")),
    ]
    result = dedupe(items, key_text=lambda i: i.text, key_url=lambda i: i.url, max_distance=0)
    assert len(result.kept) == 2
