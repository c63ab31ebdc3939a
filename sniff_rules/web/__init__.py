"""The browser game: tables and sessions on seat views, the Starlette app, and the page it serves.

:mod:`~sniff_rules.web.sessions` holds the tables without any I/O;
:mod:`~sniff_rules.web.app` is the ASGI app (the ``[web]`` extra);
``static/`` the page. ``sniff-rules serve`` runs it.
"""
