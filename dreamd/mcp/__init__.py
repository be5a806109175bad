"""The MCP server: an agent's memory tools and resources over the Model Context Protocol.

``access`` picks a workspace and runs each operation (:mod:`dreamd.runs.reading`,
:mod:`dreamd.runs.remember`, :mod:`dreamd.runs.intake`) in a worker thread; ``server`` builds
the tools and resources on the official ``mcp`` SDK and decides who may write; ``http`` serves
it as streamable HTTP inside the daemon's control API (``/mcp``, with the API's tokens).
``dreamd mcp`` runs it over stdio for an agent host that starts it.

The SDK is the optional ``mcp`` extra: only this package imports it, and nothing imports this
package except ``dreamd mcp`` and the daemon's ``/mcp`` route, when they run. The core and
the per-turn ``memory search`` never load it.

May import: runs, host, recall, workspace, store, engine and the shared top-level modules.
Imported by: daemon, cli.
"""
