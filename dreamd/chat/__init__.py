"""Chat: one router for every platform, the command texts, owner notices, adapter loading.

Lives here: ``router`` (parse, command keys, :func:`~dreamd.chat.router.authorize` and the
Router), ``access`` (owners, readers and everyone else), ``commands`` (each command against the
:class:`~dreamd.control.Service`), ``text`` (what replies say, and
:func:`~dreamd.chat.text.outward`), ``notify`` (owner notices and token hygiene), ``adapters``
(loading ``dreamd.adapters`` entry points, retries, state).

May import: :mod:`dreamd.host`, :mod:`dreamd.recall`, :mod:`dreamd.engine`, the shared
top-level modules and :mod:`dreamd.control`, never the daemon: the daemon composes chat.
Nothing imports an adapter package; they arrive as entry points.

The rule: adapters only translate; authorize() is pure and denies by default; memory text reaches
owners and readers only, never a group, and every reply passes redaction.
"""
