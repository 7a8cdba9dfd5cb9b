"""The retrieval engine: one notion of relevance for topic research, answer pages, repository focus and `ask`.

`scoring` reads a question as concepts (stems, synonyms, glossary twins, Chinese segmentation) and scores plain
field strings (title, headings, lead, body, code) with field-weighted BM25; `judge` holds one topic run's
statistics and keep threshold; `feedback` runs the dispatch → evaluate → refine loop (pseudo-relevance feedback).
"""
