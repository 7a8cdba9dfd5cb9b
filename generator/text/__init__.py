"""Text jobs shared by repository and topic research, one module each: the words of a text and their stems
(words), where its sentences end (sentences), and HTML's title, links and visible text (htmlpage). Markup
turned into documents and prose lives in generator/documents."""
