"""The project's own documentation as a source: its docs folders, README and examples read at the pinned
revision, ordered by the docs' own navigation, and grouped into the concepts its pages are about."""
