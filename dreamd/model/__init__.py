"""The optional model: an OpenAI-compatible client and the model stage of a sweep.

``client`` speaks ``/v1/chat/completions`` over aiohttp, tool-free, redacting what it sends;
``stage`` asks for the diary entry and the consolidation and finishes the plan with the
engine's checks, falling back to the plan that needs no model.

May import: :mod:`dreamd.recall`, :mod:`dreamd.store`, :mod:`dreamd.engine` and the shared
top-level modules.
"""
