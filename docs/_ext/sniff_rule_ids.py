"""Rule ids that link: every ``**ID**`` rule of the spec pages gets an anchor, and every mention of an id links to it.

The files of ``specs/`` stay plain Markdown, read on GitHub and by other implementers: a rule is a
paragraph that starts with its id in bold (``**PLACE-1** A tile ...``), and this extension finds those
paragraphs itself on the pages under ``sniff_rule_pages`` (``spec/``). Each gets the anchor
``#place-1``, its id becomes a link to itself (to copy), and a line under it lists what cites the rule:
the library's modules (linked to the API reference), the test modules and the vector files.

A page links to a rule in two ways. ``{rule}`PLACE-1``` is a role, for prose that wants to be explicit.
And every id written anywhere else (a docstring of the API reference, a guide, a spec page citing
another rule, ``PLACE-1`` as an inline literal, a range ``COUNT-1..4``) links by itself: a word is an
id when its prefix is one the spec pages define (SETUP, HOST, PROTO, ...) and a number follows. Code
blocks, titles and existing links are left alone. A mention of an id no spec page defines (``PLACE-9``)
fails the build under ``-W``, as a broken ``{rule}`` does, so a renamed or misspelt id is noticed.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from sphinx.addnodes import desc_signature, pending_xref
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.domains import Domain, ObjType
from sphinx.environment import BuildEnvironment
from sphinx.roles import XRefRole
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging
from sphinx.util.nodes import make_refnode

ROOT = Path(__file__).resolve().parents[2]
# The traceability test is the one reader of citations (ids, ``COUNT_2`` in test names, ranges).
sys.path.insert(0, str(ROOT / "tests"))
from test_traceability import cited_ids  # noqa: E402 - needs the tests folder on the path first

RULE_ID = re.compile(r"[A-Z]+-\d+")
# Where a mention is not linked: code, titles (the sidebar repeats them), links already made, signatures.
NOT_LINKED = (
    nodes.FixedTextElement,
    nodes.literal,
    nodes.title,
    nodes.reference,
    nodes.raw,
    nodes.comment,
    pending_xref,
    desc_signature,
)
# A whole inline literal that is an id (``PLACE-1``) is linked unless it is in one of these.
LITERAL_NOT_LINKED = (nodes.title, nodes.reference, nodes.raw, nodes.comment, pending_xref, desc_signature)
TITLE_LENGTH = 120
LOGGER = logging.getLogger(__name__)


def anchor_of(rule: str) -> str:
    """The HTML anchor of a rule's paragraph: ``PLACE-1`` is ``#place-1``."""
    return rule.lower()


def _first_sentence(paragraph: nodes.paragraph, rule: str) -> str:
    """The start of a rule's text, shown when a link to it is hovered."""
    text = " ".join(paragraph.astext().split()).removeprefix(rule).strip()
    sentence = text.split(". ")[0].rstrip(".") + "."
    return f"{rule}: {sentence if len(sentence) <= TITLE_LENGTH else sentence[: TITLE_LENGTH - 1] + '…'}"


class RuleDomain(Domain):
    """The rules of the spec pages as objects: ``{rule}`ID``` refers to one, ``objects.inv`` lists them all."""

    name = "sniff"
    label = "sniff-rules"
    object_types: ClassVar = {"rule": ObjType("rule", "rule")}
    roles: ClassVar = {"rule": XRefRole()}
    initial_data: ClassVar = {"rules": {}}
    dangling_warnings: ClassVar = {"rule": "unknown rule id %(target)s: no page of the specification defines it"}

    @property
    def rules(self) -> dict[str, tuple[str, str, str]]:
        """Each rule id, with the page that defines it, its anchor and its hover text."""
        found: dict[str, tuple[str, str, str]] = self.data["rules"]
        return found

    def note_rule(self, rule: str, anchor: str, title: str, node: nodes.Node) -> None:
        """Remember where a rule is defined; a second definition of one id is a warning (so ``-W`` fails)."""
        if rule in self.rules:
            other = self.env.doc2path(self.rules[rule][0])
            LOGGER.warning("rule %s is defined twice (also in %s)", rule, other, location=node)
        self.rules[rule] = (self.env.docname, anchor, title)

    def clear_doc(self, docname: str) -> None:
        """Forget the rules of a page about to be read again."""
        for rule, (page, _, _) in list(self.rules.items()):
            if page == docname:
                del self.rules[rule]

    def merge_domaindata(self, docnames: Iterable[str], otherdata: dict[str, Any]) -> None:
        """Take the rules a parallel reader found on its pages."""
        wanted = set(docnames)
        for rule, found in otherdata["rules"].items():
            if found[0] in wanted:
                self.rules[rule] = found

    def resolve_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        typ: str,
        target: str,
        node: pending_xref,
        contnode: nodes.Element,
    ) -> nodes.reference | None:
        """A link to the rule's paragraph, its first sentence as the hover text; ``None`` for an unknown id."""
        found = self.rules.get(target)
        if found is None:
            return None
        page, anchor, title = found
        return make_refnode(builder, fromdocname, page, anchor, contnode, title)

    def resolve_any_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        target: str,
        node: pending_xref,
        contnode: nodes.Element,
    ) -> list[tuple[str, nodes.reference]]:
        """``{any}`PLACE-1``` finds the rule too."""
        found = self.resolve_xref(env, fromdocname, builder, "rule", target, node, contnode)
        return [] if found is None else [("sniff:rule", found)]

    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        """Every rule, for ``objects.inv`` (so another project's Sphinx can link to a rule by id)."""
        for rule, (page, anchor, _) in sorted(self.rules.items()):
            yield rule, rule, "rule", page, anchor, 1


def rule_reference(rule: str, text: str, *, literal: bool = False) -> pending_xref:
    """A reference to a rule, resolved by :class:`RuleDomain` (and a warning when no page defines it)."""
    inner: nodes.Element = nodes.literal(text, text) if literal else nodes.inline(text, text)
    inner["classes"].append("sniff-rule")
    return pending_xref("", inner, refdomain="sniff", reftype="rule", reftarget=rule, refexplicit=True, refwarn=True)


def rule_role(
    name: str, rawtext: str, text: str, lineno: int, inliner: Any, options: Any = None, content: Any = None
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """``{rule}`PLACE-1```: a link to that rule, written as its id."""
    rule = text.strip()
    if RULE_ID.fullmatch(rule) is None:
        message = inliner.reporter.error(f"{rule!r} is not a rule id (PREFIX-N, as PLACE-1)", line=lineno)
        return [inliner.problematic(rawtext, rawtext, message)], [message]
    return [rule_reference(rule, rule)], []


@functools.cache
def citations() -> dict[str, dict[str, tuple[str, ...]]]:
    """What cites each rule id, by kind: ``code`` (modules), ``tests`` (test files), ``vectors`` (vector files).

    A rule id is cited as the traceability test reads citations (``tests/test_traceability.py``)."""
    kinds = {
        "code": [(path, _module_of(path)) for path in sorted((ROOT / "sniff_rules").rglob("*.py"))],
        "tests": [
            (path, path.relative_to(ROOT / "tests").as_posix()) for path in sorted((ROOT / "tests").rglob("*.py"))
        ],
        "vectors": [(path, path.name) for path in sorted((ROOT / "specs" / "vectors").glob("*.json"))],
    }
    found: dict[str, dict[str, list[str]]] = {}
    for kind, files in kinds.items():
        for path, name in files:
            for rule in sorted(cited_ids(path.read_text(encoding="utf-8"), any_prefix=True)):
                found.setdefault(rule, {}).setdefault(kind, []).append(name)
    return {rule: {kind: tuple(names) for kind, names in by_kind.items()} for rule, by_kind in found.items()}


def _module_of(path: Path) -> str:
    """The dotted name of a module of the package: ``sniff_rules/play/table.py`` is ``sniff_rules.play.table``."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def cited_by(rule: str) -> nodes.paragraph | None:
    """The line under a rule's paragraph: the modules (linked to their reference), tests and vectors citing it."""
    found = citations().get(rule, {})
    if not found:
        return None
    line = nodes.paragraph(classes=["sniff-cited-by"])
    labels = {"code": "Code", "tests": "Tests", "vectors": "Vectors"}
    for kind, label in labels.items():
        names = found.get(kind, ())
        if not names:
            continue
        if len(line):
            line += nodes.Text(" · ")
        line += nodes.strong(f"{label}: ", f"{label}: ")
        for index, name in enumerate(names):
            if index:
                line += nodes.Text(", ")
            # A module is linked once every page is read (LinkRuleIds), if the reference documents it.
            line += nodes.literal(name, name, classes=["sniff-cited-module"] if kind == "code" else [])
    return line


class RuleAnchors(SphinxTransform):
    """On a spec page, each paragraph that starts with a bold rule id gets its anchor and its citations."""

    default_priority = 500

    def apply(self, **kwargs: object) -> None:
        """Anchor every rule paragraph of this page, if it is a spec page."""
        if not self.env.docname.startswith(tuple(self.config.sniff_rule_pages)):
            return
        domain: RuleDomain = self.env.get_domain("sniff")  # type: ignore[assignment]
        for paragraph in list(self.document.findall(nodes.paragraph)):
            # MyST starts a paragraph with an empty text node before the bold id.
            first = next((child for child in paragraph.children if child.astext()), None)
            if not isinstance(first, nodes.strong) or RULE_ID.fullmatch(first.astext()) is None:
                continue
            rule = first.astext()
            anchor = anchor_of(rule)
            paragraph["ids"].append(anchor)
            paragraph["classes"].append("sniff-rule-definition")
            self.document.ids[anchor] = paragraph
            domain.note_rule(rule, anchor, _first_sentence(paragraph, rule), paragraph)
            # The id itself links to its own paragraph, so a reader copies the link from it.
            link = nodes.reference("", "", nodes.strong(rule, rule), refid=anchor, classes=["sniff-rule-anchor"])
            first.replace_self(link)
            line = cited_by(rule)
            if line is not None:
                paragraph.parent.insert(paragraph.parent.index(paragraph) + 1, line)


class LinkRuleIds(SphinxPostTransform):
    """Every mention of a rule id in text (or as a whole inline literal) becomes a reference to the rule."""

    default_priority = 5  # before Sphinx resolves the pending references (10)

    def run(self, **kwargs: object) -> None:
        """Split each text node around the ids it mentions."""
        domain: RuleDomain = self.env.get_domain("sniff")  # type: ignore[assignment]
        prefixes = sorted({rule.split("-")[0] for rule in domain.rules}, key=len, reverse=True)
        if not prefixes:
            return
        mention = re.compile(rf"(?<![\w-])(?:{'|'.join(prefixes)})-\d+(?:\.\.(\d+))?(?![\w-])")
        for literal in list(self.document.findall(nodes.literal)):
            text = literal.astext()
            whole = mention.fullmatch(text)
            if whole is not None and not _inside(literal, LITERAL_NOT_LINKED):
                literal.replace_self(self._references(whole, domain, literal=True))
            elif "sniff-cited-module" in literal["classes"]:
                self._link_module(literal)
        for text in list(self.document.findall(nodes.Text)):
            if _inside(text, NOT_LINKED) or mention.search(text) is None:
                continue
            pieces: list[nodes.Node] = []
            at = 0
            for found in mention.finditer(text):
                if found.start() > at:
                    pieces.append(nodes.Text(text[at : found.start()]))
                pieces.extend(self._references(found, domain))
                at = found.end()
            if at < len(text):
                pieces.append(nodes.Text(text[at:]))
            text.parent.replace(text, pieces)

    def _references(self, found: re.Match[str], domain: RuleDomain, *, literal: bool = False) -> list[nodes.Node]:
        """One mention's reference: ``COUNT-1..4`` links to COUNT-1, and its end must be a rule too."""
        written = found.group(0)
        first = written.split("..")[0]
        last = f"{first.split('-')[0]}-{found.group(1)}" if found.group(1) is not None else first
        if last != first and last not in domain.rules:
            LOGGER.warning("unknown rule id %s: no page of the specification defines it", last, location=self.document)
        return [rule_reference(first, written, literal=literal)]

    def _link_module(self, literal: nodes.literal) -> None:
        """A module named under a rule links to its entry in the API reference, if it has one."""
        modules = self.env.get_domain("py").modules  # type: ignore[attr-defined]
        entry = modules.get(literal.astext())
        if entry is not None:
            link = make_refnode(self.app.builder, self.env.docname, entry.docname, entry.node_id, literal.deepcopy())
            literal.replace_self(link)


def _inside(node: nodes.Node, kinds: tuple[type[nodes.Node], ...]) -> bool:
    """Whether a node is, or is inside, a node of one of those kinds."""
    current: nodes.Node | None = node
    while current is not None:
        if isinstance(current, kinds):
            return True
        current = current.parent
    return False


def setup(app: Sphinx) -> dict[str, object]:
    """Register the domain, the ``rule`` role, the anchors and the linking of mentions."""
    app.add_config_value("sniff_rule_pages", ["spec/"], "env", list)
    app.add_domain(RuleDomain)
    app.add_role("rule", rule_role)
    app.add_transform(RuleAnchors)
    app.add_post_transform(LinkRuleIds)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
