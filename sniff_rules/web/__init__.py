"""The browser game: tables for several people on seat views, their stores, the Starlette app, and the page.

:mod:`~sniff_rules.web.seats` says what a seat is sent and reads what it
sends, without any I/O; :mod:`~sniff_rules.web.store` keeps the tables
(:class:`~sniff_rules.web.store.MemoryStore`, :class:`~sniff_rules.web.store.SQLiteStore`);
:mod:`~sniff_rules.web.host` changes them by compare-and-set and drives
them on; :mod:`~sniff_rules.web.app` is the ASGI app (the ``[web]`` extra);
``static/`` the page. ``sniff-rules serve`` runs it.
"""
