"""Recall: the derived FTS5 index over a workspace's Markdown, search, and recall traces."""
