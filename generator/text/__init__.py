"""Text jobs shared by repository and topic research, one module each: the words of a text and their stems
(words), where its sentences end (sentences), and markup turned into plain prose (plaintext for markdown and
reStructuredText, htmlpage for HTML)."""
