"""The page layer: typed research records (shard drafts, repository syntheses, topic findings, raw sources,
reports) rendered into site_src pages through templates, and written through generator/store.py.

Research never imports this package; it returns records, and the pipelines hand them here.
"""
