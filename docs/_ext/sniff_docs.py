"""The documentation's own Sphinx extension: the API reference and the pictures, made from the library at build time.

``{sniff-api} RING`` documents every public module of a ring (``sniff_rules`` for the core, or a ring
subpackage such as ``sniff_rules.play``) with autodoc, each public name once, in the module that
defines it; a module added to the ring is documented without editing a page. A package's re-exports
are listed as links to those entries, and a reference to a name through a module that merely imports
it (an annotation naming ``sniff_rules.tiles.Tile`` where the page documents it, say) is resolved to
the one entry, so that ``-n`` fails only on names the reference truly lacks.

``{sniff-layout} LAYOUT`` and ``{sniff-tally} SCORE`` draw a layout (in ``Layout.parse``'s notation)
and a score's paper tally with :mod:`sniff_rules.draw.svg` while the site is built, so a picture
cannot drift from what the library draws.
"""

from __future__ import annotations

import ast
import builtins
import enum
import functools
import importlib
import importlib.util
import inspect
import pkgutil
import re
from collections.abc import Iterator
from types import ModuleType
from typing import ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.addnodes import desc_signature, pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode, nested_parse_with_titles

import sniff_rules
from sniff_rules import Layout, Tile
from sniff_rules.draw.svg import svg, tally_svg
from sniff_rules.draw.text import layout_text, tally_text

ROOT = "sniff_rules"
# sniff_rules.vectors is the data of specs/vectors mapped into the package, not code; __main__ runs the command.
NOT_API = frozenset({"sniff_rules.vectors", "sniff_rules.__main__"})
LONG_VALUE = 100
# The short names this library's modules import other packages by, as they appear in annotation strings.
# A literal naming an entry, called or not: ``sniff_rules.draw.svg.svg(...)``, ``apply``.
NAMED = re.compile(r"([A-Za-z_][\w.]*)(?:\(.*\))?")
# Where a literal is already a link, is a title (a page's title is a link in the sidebar), or is a signature.
LINKED = (nodes.reference, nodes.title, pending_xref, desc_signature)
ALIASES_OUTSIDE = frozenset({"np", "numpy", "Any", "None"})


def is_private(module_name: str) -> bool:
    """Whether a dotted module name has a component that starts with an underscore."""
    return any(part.startswith("_") for part in module_name.split(".")[1:])


def public_modules() -> list[str]:
    """Every public module of the package, the package itself first, in import-path order."""
    found = [ROOT]
    found.extend(
        info.name
        for info in pkgutil.walk_packages(sniff_rules.__path__, ROOT + ".")
        if not is_private(info.name) and not any(info.name.startswith(skip) for skip in NOT_API)
    )
    return sorted(found)


def ring_of(module_name: str) -> str:
    """The ring a module belongs to: ``sniff_rules`` for the core, else ``sniff_rules.<ring>``."""
    parts = module_name.split(".")
    return ROOT if len(parts) == 1 or not _is_package(ROOT + "." + parts[1]) else ROOT + "." + parts[1]


def _is_package(module_name: str) -> bool:
    """Whether a module of the package is itself a package."""
    return hasattr(importlib.import_module(module_name), "__path__")


def defined_names(module: ModuleType) -> list[str]:
    """The public names a module's own top level defines (classes, functions, assigned values), in source order."""
    return list(_defined_names(module.__name__))


@functools.cache
def _defined_names(module_name: str) -> tuple[str, ...]:
    """:func:`defined_names` of the module of that name, read once a build."""
    tree = ast.parse(inspect.getsource(importlib.import_module(module_name)))
    names: list[str] = []
    for statement in tree.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.append(statement.name)
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            names.append(statement.target.id)
        elif isinstance(statement, ast.Assign):
            names.extend(target.id for target in statement.targets if isinstance(target, ast.Name))
    return tuple(name for name in dict.fromkeys(names) if not name.startswith("_"))


def home_of(module: ModuleType, name: str) -> str | None:
    """The module of this package that defines ``module.name``: a class's or function's ``__module__``; for a
    value, the module under ``module``'s own package whose top level assigns that name that very object."""
    value = getattr(module, name)
    if _is_code(value, name):
        home = value.__module__
        return home if home.split(".")[0] == ROOT else None
    package = module.__name__ if hasattr(module, "__path__") else module.__name__.rpartition(".")[0]
    for info in pkgutil.walk_packages(importlib.import_module(package).__path__, package + "."):
        other = importlib.import_module(info.name)
        if name in defined_names(other) and getattr(other, name) is value:
            return info.name
    return None


def documented_names(module: ModuleType) -> list[str]:
    """What a module's entry documents: what it defines and what it alone exports from a private module.

    A name of a private module exported by a package and by one of its plain modules is documented
    in the plain module (``Violation``: ``sniff_rules.position.laws``), and the package links to it."""
    names = defined_names(module)
    for name in getattr(module, "__all__", ()):
        home = home_of(module, name)
        if name in names or home is None or not is_private(home):
            continue
        if hasattr(module, "__path__"):
            plain = [
                info.name
                for info in pkgutil.iter_modules(module.__path__, module.__name__ + ".")
                if not is_private(info.name) and name in getattr(importlib.import_module(info.name), "__all__", ())
            ]
            if plain:
                continue
        names.append(name)
    return names


def _is_code(value: object, name: str | None = None) -> bool:
    """Whether a value is a class or function (named ``name``, when given), whose identity says where it is
    documented; a type alias (``Pip: TypeAlias = int``) is a value."""
    code = inspect.isclass(value) or inspect.isfunction(value)
    return code and (name is None or getattr(value, "__name__", None) == name)


def entries_by_path() -> dict[str, str]:
    """Every public ``module.name`` path of the package, mapped to the entry that documents its object."""
    modules = {name: importlib.import_module(name) for name in public_modules()}
    by_id: dict[int, str] = {}
    by_name_and_id: dict[tuple[str, int], str] = {}
    for module_name, module in modules.items():
        for name in documented_names(module):
            value = getattr(module, name)
            entry = f"{module_name}.{name}"
            if _is_code(value, name):
                by_id.setdefault(id(value), entry)
            by_name_and_id.setdefault((name, id(value)), entry)
    paths: dict[str, str] = {}
    for module_name, module in modules.items():
        for name in dir(module):
            value = getattr(module, name)
            if name.startswith("_") or inspect.ismodule(value):
                continue
            entry = by_id.get(id(value)) if _is_code(value, name) else by_name_and_id.get((name, id(value)))
            if entry is not None:
                paths[f"{module_name}.{name}"] = entry
    return paths


def _directive_for(value: object, name: str) -> str:
    """The autodoc directive that documents one name: a type alias is data, not the class it stands for."""
    if not _is_code(value, name):
        return "autodata"
    if inspect.isclass(value):
        return "autoexception" if issubclass(value, BaseException) else "autoclass"
    return "autofunction"


def module_rst(module_name: str) -> Iterator[str]:
    """The reStructuredText of one module's section of the reference."""
    module = importlib.import_module(module_name)
    yield f"``{module_name}``"
    yield "-" * (len(module_name) + 4)
    yield ""
    yield f".. automodule:: {module_name}"
    yield ""
    exports = [name for name in getattr(module, "__all__", ()) if name not in documented_names(module)]
    if exports:
        yield f"``{module_name}`` also exports: " + ", ".join(f":py:obj:`{name}`" for name in exports) + "."
        yield ""
    for name in documented_names(module):
        value = getattr(module, name)
        kind = _directive_for(value, name)
        yield f".. {kind}:: {module_name}.{name}"
        if kind == "autoclass" and inspect.isclass(value) and issubclass(value, enum.Enum):
            yield "   :members:"
            yield "   :undoc-members:"
        elif kind in ("autoclass", "autoexception"):
            # undoc-members: an attrs class's fields (slots without docstrings of their own) are listed.
            yield "   :members:"
            yield "   :undoc-members:"
            yield "   :show-inheritance:"
        elif kind == "autodata" and len(repr(value)) > LONG_VALUE:
            yield "   :no-value:"
        yield ""


class RingReference(SphinxDirective):
    """``{sniff-api} RING``: every public module of one ring, each documented with autodoc."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        """Parse the generated reStructuredText of every module of the ring."""
        ring = self.arguments[0]
        lines = [line for name in public_modules() if ring_of(name) == ring for line in module_rst(name)]
        content = StringList(lines, source=f"<sniff-api {ring}>")
        holder = nodes.section()
        holder.document = self.state.document
        nested_parse_with_titles(self.state, content, holder)
        return list(holder.children)


class LayoutPicture(SphinxDirective):
    """``{sniff-layout} LAYOUT``: a layout drawn by ``sniff_rules.draw.svg.svg`` at build time.

    Options: ``:targets-of: [2|3]`` rings where that tile may go; ``:size:`` in pixels (360);
    ``:caption:`` (the layout's end count by default)."""

    required_arguments = 1
    final_argument_whitespace = True
    option_spec: ClassVar = {
        "targets-of": directives.unchanged,
        "size": directives.positive_int,
        "caption": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        """Draw the layout; an unreadable one fails the build with the library's own error."""
        layout = Layout.parse(self.arguments[0])
        target = self.options.get("targets-of")
        tile = None if target is None else Tile.parse(target)
        picture = svg(layout, size=self.options.get("size", 360), targets_of=tile)
        caption = self.options.get("caption", f"end count {layout.end_count}")
        return [
            nodes.raw(
                "", f'<figure class="sniff-picture">{picture}<figcaption>{caption}</figcaption></figure>', format="html"
            ),
            nodes.comment("", layout_text(layout, ascii=True)),
        ]


class TallyPicture(SphinxDirective):
    """``{sniff-tally} SCORE``: a score's paper tally (TALLY-1) drawn by ``sniff_rules.draw.svg.tally_svg``."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        """Draw the tally of the score given."""
        score = int(self.arguments[0])
        caption = f"{score} as a paper tally"
        return [
            nodes.raw(
                "",
                f'<figure class="sniff-picture">{tally_svg(score)}<figcaption>{caption}</figcaption></figure>',
                format="html",
            ),
            nodes.comment("", tally_text(score, ascii=True)),
        ]


def _candidates(node: pending_xref) -> list[str]:
    """The paths a reference may mean, in order: as written, in the current class and module, a core name."""
    target: str = node["reftarget"].lstrip(".~")
    module_name: str | None = node.get("py:module")
    class_name: str | None = node.get("py:class")
    paths = [target]
    if module_name and class_name:
        paths.append(f"{module_name}.{class_name}.{target}")
    if module_name:
        paths.append(f"{module_name}.{target}")
    paths.append(f"{ROOT}.{target}")
    return paths


def resolve_through_imports(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.Element
) -> nodes.Element | None:
    """A Python reference to a name as some module imports it, resolved to the entry that documents it.

    ``Tile`` in ``sniff_rules``'s docstring, ``sniff_rules.layout.PointId`` (``PointId`` is defined in
    ``sniff_rules.points``), ``sniff_rules.Tile.parse``, ``end_count`` in a method of ``Layout``: each
    path of :func:`_candidates` has its longest known prefix replaced by that entry. Last, a name that
    ends exactly one entry (``seat_view_to_json``, named in a ring that may not import it) is that entry."""
    if node.get("refdomain") != "py":
        return None
    paths: dict[str, str] = env.sniff_paths  # type: ignore[attr-defined]
    objects = env.get_domain("py").objects
    for path in _candidates(node):
        parts = path.split(".")
        for split in range(len(parts), 0, -1):
            known = ".".join(parts[:split])
            entry = paths.get(known, known if known in objects else None)
            full = ".".join([entry, *parts[split:]]) if entry is not None else None
            if full is not None and full in objects:
                found = objects[full]
                return make_refnode(app.builder, node["refdoc"], found.docname, found.node_id, contnode, full)
    target = node["reftarget"].lstrip(".~")
    ending = [name for name in objects if name.endswith("." + target)]
    if len(ending) == 1:
        found = objects[ending[0]]
        return make_refnode(app.builder, node["refdoc"], found.docname, found.node_id, contnode, ending[0])
    return None


def skip_generated(app: Sphinx, what: str, name: str, obj: object, skip: bool, options: object) -> bool | None:
    """Leave out every method attrs generates (their docstring says so) and everything private."""
    if (getattr(obj, "__doc__", None) or "").startswith("Method generated by attrs"):
        return True
    return None


def remember_entries(app: Sphinx) -> None:
    """Compute, once a build, where each documented object's entry is."""
    app.env.sniff_paths = entries_by_path()  # type: ignore[attr-defined]


def own_docstring_only(app: Sphinx, what: str, name: str, obj: object, options: object, lines: list[str]) -> None:
    """A constant without a docstring of its own shows none, not the docstring of its type (``dict``'s, say)."""
    inherited = obj.__doc__ if inspect.isclass(obj) else type(obj).__doc__
    if what == "data" and "\n".join(lines).strip() == inspect.cleandoc(inherited or ""):
        lines.clear()


def outside_the_library(app: Sphinx, domain: object, node: pending_xref) -> bool | None:
    """Let a Python reference pass unresolved when it is not this library's to document.

    That is: a builtin, another installed package (``hypothesis.strategies.SearchStrategy``), a name a
    module of this library imports from one (``SearchStrategy`` in ``sniff_rules.verify.strategies``),
    a private name (``_LastPlacement``) or a special method (``__str__``). Anything else fails ``-n``."""
    if node.get("refdomain") != "py":
        return None
    target: str = node["reftarget"].lstrip(".~")
    if not all(part.isidentifier() for part in target.split(".")):
        # A type alias written as a string (``"int | np.integer[Any] | None"``) that autodoc could not
        # split: it passes when every name in it is a builtin or another package's.
        roots = {word.split(".")[0] for word in re.findall(r"[A-Za-z_][\w.]*", target)}
        return all(root != ROOT and (hasattr(builtins, root) or root in ALIASES_OUTSIDE) for root in roots) or None
    parts = target.split(".")
    if any(part.startswith("_") for part in parts):
        return True
    if parts[0] != ROOT and hasattr(builtins, parts[0]):
        return True
    if parts[0] != ROOT:
        try:
            if importlib.util.find_spec(parts[0]) is not None:
                return True
        except (ImportError, ValueError):
            pass
    module_name: str | None = node.get("py:module")
    if module_name:
        imported = getattr(importlib.import_module(module_name), parts[0], None)
        home = getattr(imported, "__module__", None)
        if isinstance(home, str) and home.split(".")[0] != ROOT:
            return True
    return None


class LinkLiterals(SphinxPostTransform):
    """An inline literal that names a documented object links to its entry in the API reference.

    ``sniff_rules.play.table.Table``, ``sniff_rules.draw.svg.svg(...)``, ``sniff_rules.play.seat_view`` (a
    ring's export) and a core name alone (``apply``, ``new_match(...)``) are linked; any other text is
    left as it is, so a guide names things as people write them and still leads to the reference."""

    default_priority = 5  # before Sphinx resolves the pending references (10)
    formats = ("html",)

    def run(self, **kwargs: object) -> None:
        """Wrap each literal that names an entry in a link to it."""
        paths: dict[str, str] = self.env.sniff_paths  # type: ignore[attr-defined]
        objects = self.env.get_domain("py").objects
        for literal in list(self.document.findall(nodes.literal)):
            if any(isinstance(parent, LINKED) for parent in _ancestors(literal)):
                continue
            named = NAMED.fullmatch(literal.astext())
            if named is None:
                continue
            path = named.group(1)
            entry = paths.get(path) or paths.get(f"{ROOT}.{path}") or (path if path in objects else None)
            if entry is None or entry not in objects:
                continue
            found = objects[entry]
            link = make_refnode(
                self.app.builder, self.env.docname, found.docname, found.node_id, literal.deepcopy(), entry
            )
            literal.replace_self(link)


def _ancestors(node: nodes.Node) -> Iterator[nodes.Node]:
    """A node's parents, innermost first."""
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def setup(app: Sphinx) -> dict[str, object]:
    """Register the directives and the reference resolver."""
    app.add_directive("sniff-api", RingReference)
    app.add_directive("sniff-layout", LayoutPicture)
    app.add_directive("sniff-tally", TallyPicture)
    app.connect("builder-inited", remember_entries)
    app.connect("missing-reference", resolve_through_imports)
    app.connect("autodoc-skip-member", skip_generated)
    app.connect("autodoc-process-docstring", own_docstring_only)
    app.connect("warn-missing-reference", outside_the_library)
    app.add_post_transform(LinkLiterals)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
