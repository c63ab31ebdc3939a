"""The conformance vectors, installed as the package data ``sniff_rules.vectors``.

This folder is the one source of the vectors. pyproject.toml maps the
package ``sniff_rules.vectors`` onto it, so that a wheel carries these files
and an editable install reads them here; this file only makes the folder a
package. The vectors themselves are the JSON files, for any language.
"""
