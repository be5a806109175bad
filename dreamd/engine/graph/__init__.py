"""The inverted-cone graph (M-FLOW): what the notes are about, from the tip to the base.

Four layers, each node with an id that says its layer:

* L4 ``entity:<key>`` — a person, project, tool or the user, named in the notes;
* L3 ``fp:<kind>.<topic>`` — a FacetPoint: a salience kind, a topic and its keywords;
* L2 ``facet:<group>`` — a Facet: a group such as ``correction_group`` or ``project_atlas``;
* L1 ``ep:<path>#L<line>`` — an Episode: a daily-note section, a topic file or a pattern.

Edges point from the tip to the base and carry a cost and a one-line reason. Lives here:
``episodes`` (notes into episodes), ``keywords`` (keywords from the tokenizer plus counts),
``fragments`` (one file's nodes, edges and tagged lines), ``cone`` (the merged graph and its
statistics), ``ledger`` (the fragments kept in ``memory/.dreams/graph.json`` so a sweep reads
only changed files), ``export`` (the ``memory/graph/*.json`` documents) and ``bundle`` (cost
propagation from entry points to episodes).

May import: :mod:`dreamd.engine` and the shared top-level modules only. Pure: the graph is
derived from the Markdown, so deleting it and sweeping again builds the same graph.
"""
