"""Frozen values that cannot be changed in place, and a fast way to build the hot ones.

Two class decorators, applied on top of ``@attrs.frozen``:

- :func:`sealed` makes a value immutable by every route the library can
  close: attrs already refuses assignment and deletion (``__class__``
  included); ``__setstate__`` is refused too, and pickling and copying go
  through :meth:`__reduce__` and the public constructor (or a given
  factory, so that shared values such as the 28 tiles stay shared).
  ``object.__setattr__`` can still write a slot, as for any Python class.
- :func:`fast_frozen` does the same for the values built on every move
  (:class:`~sniff_rules.state.State`, :class:`~sniff_rules.layout.Layout`,
  :class:`~sniff_rules.randomness.SplitMix64`): a generated ``__new__``
  fills a mutable twin with the same slots and then gives it the frozen
  class. attrs' frozen ``__init__`` sets each field through
  ``object.__setattr__``, which costs several times more (see
  ``benchmarks/README.md``). Equality, hashing, ``repr`` and the refusal to
  assign stay attrs' own. The decorator refuses, at import, a field with a
  validator or converter, a post-init hook or a ``__weakref__`` slot, all
  of which the fast path would skip or break; a class that needs a check
  on its public constructor passes ``check``, which ``cls(...)`` runs and
  the engine's direct ``cls.__new__(cls, ...)`` calls (values already known
  good) do not.

The generated functions read as the class's own: each is compiled from a
file name of its own (``<sniff_rules generated __new__ sniff_rules.state.State>``)
whose source :mod:`linecache` holds, so tracebacks, debuggers and
:func:`inspect.getsource` show its lines, and its ``__module__`` and
``__qualname__`` (``State.__new__``, ``State._construct``) are the class's.

Checked calls. The core also compiles (``SNIFF_RULES_COMPILE=1``, ``setup.py``),
and mypyc refuses an argument of the wrong static type with a TypeError of its
own, before the body could refuse it by its rule. So each public call that
refuses bad input by rule (``apply``, ``legal_moves``, ``Tile.parse``, ...)
is written as one ``@overload``, the signature a type checker and a frontend see,
above a body whose parameters are ``Any``; the body checks each value itself
(FORMAT-3 and the rest), the same way in both builds. The values the engine builds
on every move are made by :func:`frozen_value`, which gives the compiled build
native classes and the interpreted one attrs classes, from one class body.

Three validators, :func:`is_tuple`, :func:`is_tuple_of_tuples` and
:func:`is_optional_tuple_of_tuples`, keep a value's sequence fields tuples:
a list there would make the value unhashable and changeable in place, so it
is refused (FORMAT-3), as the static type already says.
"""

from __future__ import annotations

import functools
import linecache
import types
from collections.abc import Callable
from typing import Any, Final, NoReturn, TypeVar

import attrs

from sniff_rules.errors import InvalidStateError

T = TypeVar("T")

_NO_DEFAULT: Final = attrs.NOTHING


def _refuse_setstate(_self: object, _state: object) -> None:
    # The same error as attrs' own refusal to assign a field.
    raise attrs.exceptions.FrozenInstanceError()


def _init_fields(cls: type[Any]) -> tuple[str, ...]:
    return tuple(field.name for field in attrs.fields(cls) if field.init)


def sealed(factory: Callable[..., Any] | None = None) -> Callable[[type[T]], type[T]]:
    """Refuse ``__setstate__`` on an attrs frozen class; pickle and copy rebuild it.

    ``factory`` rebuilds a value from its init fields; by default the class
    itself, so a copy is checked like any new value.
    """

    def seal(cls: type[T]) -> type[T]:
        names = _init_fields(cls)
        build = cls if factory is None else factory

        def __reduce__(self: object) -> tuple[Callable[..., Any], tuple[object, ...]]:
            return build, tuple(getattr(self, name) for name in names)

        # Any: mypy cannot type methods added to a class after it is made.
        target: Any = cls
        target.__reduce__ = __reduce__
        target.__setstate__ = _refuse_setstate
        return cls

    return seal


def _slotted_fields(cls: type[Any]) -> tuple[Any, ...]:
    """The attrs fields of ``cls``, if its fixed slots let a mutable twin be swapped into it."""
    target: Any = cls
    name = cls.__name__
    if "__slots__" not in vars(cls):
        raise TypeError(f"{name}: only a slotted class has the fixed layout the twin copies")
    if "__weakref__" in target.__slots__:
        raise TypeError(f"{name}: a __weakref__ slot keeps the twin's class from being swapped")
    return tuple(attrs.fields(target))


_MAX_GENERATED_COPIES: Final = 1 << 12
"""Classes of one name whose generated code linecache keeps apart; a bound, so the search always ends."""


def _compiled(cls: type[Any], name: str, parameters: str, body: list[str], namespace: dict[str, Any]) -> Any:
    """The generated function ``name`` of ``cls``, compiled from its own file name with its source in
    :mod:`linecache`, so that tracebacks, debuggers and :func:`inspect.getsource` show its lines, and
    named as the class's method, in the class's module."""
    lines = [f"def {name}({parameters}):\n", *(f"{line}\n" for line in body)]
    source = "".join(lines)
    base = f"<sniff_rules generated {name} {cls.__module__}.{cls.__qualname__}"
    # A class made again under the same name (inside a function, say) with other fields must not show
    # the first one's lines; the same source again shares its entry. No modification time, so
    # linecache.checkcache keeps the entry instead of looking for a file.
    for copies in range(_MAX_GENERATED_COPIES):
        filename = f"{base}>" if copies == 0 else f"{base}-{copies}>"
        entry = (len(source), None, lines, filename)
        if linecache.cache.setdefault(filename, entry) == entry:
            break
    else:
        raise TypeError(f"{cls.__qualname__}: {_MAX_GENERATED_COPIES} classes of this name were made already")
    exec(compile(source, filename, "exec"), namespace)
    function = namespace[name]
    function.__module__ = cls.__module__
    function.__qualname__ = f"{cls.__qualname__}.{name}"
    return function


def _generated(cls: type[Any]) -> tuple[Any, Any]:
    """``_construct(...)`` and ``__new__(cls, ...)`` of ``cls``: each fills a mutable twin with the
    same slots, field by field, then gives it the class, so no ``__init__`` runs."""
    fields = _slotted_fields(cls)
    names = tuple(field.name for field in fields)
    twin = type(f"_Mutable{cls.__name__}", (), {"__slots__": names})
    namespace: dict[str, Any] = {"_new_object": object.__new__, "_Twin": twin, "_cls": cls}
    parameters = []
    for field in fields:
        if field.default is _NO_DEFAULT:
            parameters.append(field.name)
        else:
            namespace[f"_default_{field.name}"] = field.default
            parameters.append(f"{field.name}=_default_{field.name}")
    body = ["    value = _new_object(_Twin)", *(f"    value.{field_name} = {field_name}" for field_name in names)]
    body += ["    value.__class__ = _cls", "    return value"]
    signature = ", ".join(parameters)
    construct = _compiled(cls, "_construct", signature, body, namespace)
    return construct, _compiled(cls, "__new__", f"cls, {signature}", body, namespace)


def unchecked_constructor(cls: type[T]) -> type[T]:
    """A constructor of the slotted attrs class ``cls`` that skips attrs' ``__init__``, its
    validators included: the twin of :func:`fast_frozen`, for a class whose public constructor
    stays checked while the library builds its values from ones it already holds good.

    The value is the one ``cls(...)`` would build, equal and hashed alike. Typed as the class
    so that mypy checks each call against the class's fields.
    """
    construct: type[T] = _generated(cls)[0]
    return construct


def fast_frozen(check: Callable[[Any], None] | None = None) -> Callable[[type[T]], type[T]]:
    """Build an attrs frozen, slotted class through a mutable twin (see the module doc).

    The class must be final: ``__new__`` builds exactly it, so subclassing
    raises ``TypeError``.
    """

    def build(cls: type[T]) -> type[T]:
        # Any: mypy cannot type methods added to a class after it is made.
        target: Any = cls
        name = cls.__name__
        fields = _slotted_fields(cls)
        for field in fields:
            if field.validator is not None or field.converter is not None:
                raise TypeError(f"{name}.{field.name}: the fast __new__ would skip its validator or converter")
            if not field.init:
                raise TypeError(f"{name}.{field.name}: the fast __new__ sets every field from an argument")
        if hasattr(cls, "__attrs_post_init__") or hasattr(cls, "__attrs_pre_init__"):
            raise TypeError(f"{name}: the fast __new__ would skip its init hooks")
        construct, new = _generated(cls)
        target.__new__ = staticmethod(new)
        target._construct = staticmethod(construct)
        # type.__call__ still runs __init__ after __new__: object's accepts the
        # arguments and does nothing, or ``check`` validates a public call.
        if check is None:
            delattr(cls, "__init__")
        else:

            def __init__(self: object, *_args: object, **_kwargs: object) -> None:
                check(self)

            target.__init__ = __init__

        def __init_subclass__(_subclass: type[Any], /, **_kwargs: object) -> None:
            raise TypeError(f"{name} is final: its fast __new__ builds exactly {name}")

        target.__init_subclass__ = classmethod(__init_subclass__)
        return sealed()(cls)

    return build


def frozen_value(*, repr: bool = True, **_read_by_type_checkers: object) -> Callable[[type[T]], type[T]]:  # noqa: A002
    """The class decorator of the values every move builds, one source for both builds.

    Type checkers and mypyc read it as ``attr.s`` (``sniff_rules/_value_class.pyi``):
    mypy sees a frozen attrs class (its fields read-only, ``attrs.evolve`` checked),
    and mypyc compiles the class as a native one, whose own ``__new__`` fills the
    fields unchecked. At run time:

    - interpreted, the class becomes what ``@attrs.frozen`` and :func:`fast_frozen`
      make of it, its ``__new__`` replaced by the generated one;
    - compiled, the native class keeps its ``__new__`` and gains what attrs would
      have given it: ``__attrs_attrs__`` (so ``attrs.fields`` and ``attrs.evolve``
      work), equality, hashing, ``repr`` when asked for, the refusal to assign,
      delete or ``__setstate__``, and pickling through the public constructor.

    Either way ``cls(...)`` runs the class's ``_check_fields`` and
    ``cls.__new__(cls, ...)`` does not: the engine builds values it knows are good.
    The keyword arguments other than ``repr`` are ``attr.s``'s, for the type checkers.
    """

    def build(cls: type[T]) -> type[T]:
        check: Callable[[Any], None] = vars(cls)["_check_fields"]
        if is_native(cls):
            return _native_value(cls, check, repr)
        made: type[T] = attrs.frozen(cls, repr=repr, weakref_slot=False)
        return fast_frozen(check=check)(made)

    return build


def refuse_unstorable(check: Callable[[Any], None], cls: type[Any], values: tuple[object, ...]) -> NoReturn:
    """Raise what ``check`` raises for a ``cls`` of these field values, whose types a compiled value cannot hold.

    A native ``__new__`` calls it before storing a field of the wrong type, so that the compiled
    build refuses exactly as the interpreted one, whose public check sees the same fields.
    """
    fields = dict(zip((field.name for field in attrs.fields(cls)), values, strict=True))
    check(types.SimpleNamespace(**fields))
    wrong = ", ".join(f"{name} is {type(value).__name__}" for name, value in fields.items())
    raise InvalidStateError("FORMAT-3", f"a field holds a value of another type: {wrong}")


def is_native(cls: type[Any]) -> bool:
    """``cls`` is a class mypyc compiled (the compiled build's values of :func:`frozen_value`)."""
    return "__mypyc_attrs__" in vars(cls)


def _refuse_change(_self: object, *_args: object) -> None:
    raise attrs.exceptions.FrozenInstanceError()


def _native_value(cls: type[T], check: Callable[[Any], None], with_repr: bool) -> type[T]:
    """What attrs gives an interpreted value, given to a class mypyc compiled (see :func:`frozen_value`)."""
    # Any: mypy cannot type methods added to a class after it is made.
    target: Any = cls
    names: tuple[str, ...] = tuple(target.__mypyc_attrs__)
    namespace = vars(cls)
    shape = {name: attrs.field(default=namespace[name]) if name in namespace else attrs.field() for name in names}
    target.__attrs_attrs__ = attrs.fields(attrs.make_class(cls.__name__, shape, frozen=True))
    target.__match_args__ = names  # type: ignore[misc]  # attrs sets it on an interpreted class too

    def values(self: object) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in names])

    def __eq__(self: object, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return values(self) == values(other)

    def __hash__(self: object) -> int:
        return hash(values(self))

    def __reduce__(self: object) -> tuple[type[T], tuple[object, ...]]:
        return cls, values(self)

    def __init__(self: object, *_args: object, **_kwargs: object) -> None:
        check(self)

    # != comes from __eq__, as for any class: object.__ne__ inverts it.
    target.__eq__, target.__hash__ = __eq__, __hash__
    # What constructor(cls) hands out: the native __new__, without the public check.
    target._construct = staticmethod(functools.partial(cls.__new__, cls))
    target.__reduce__, target.__init__ = __reduce__, __init__
    target.__setattr__ = target.__delattr__ = target.__setstate__ = _refuse_change
    name = cls.__name__

    def __init_subclass__(_subclass: type[Any], /, **_kwargs: object) -> None:
        raise TypeError(f"{name} is final: its fast __new__ builds exactly {name}")

    target.__init_subclass__ = classmethod(__init_subclass__)
    if with_repr:

        def __repr__(self: object) -> str:
            fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
            return f"{cls.__name__}({fields})"

        target.__repr__ = __repr__
    return cls


def constructor(cls: type[T]) -> type[T]:
    """The fast constructor of a :func:`fast_frozen` class, for the hot path.

    Calling it is calling ``cls(...)``, minus ``type.__call__`` and ``check``:
    only for values the caller knows are good. Typed as the class so that
    mypy checks each call against the class's fields.
    """
    construct: type[T] = cls.__dict__["_construct"].__func__
    return construct


def _refuse_sequence(instance: object, attribute: attrs.Attribute[Any], what: str, value: object) -> None:
    name = f"{type(instance).__name__}.{attribute.name}"
    raise InvalidStateError("FORMAT-3", f"{name} is {what}, got {type(value).__name__} {value!r}")


def is_tuple(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """attrs validator: the field is a tuple, never a list or other sequence (FORMAT-3)."""
    if not isinstance(value, tuple):
        _refuse_sequence(instance, attribute, "a tuple", value)


def is_tuple_of_tuples(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """attrs validator: the field is a tuple of tuples, at both levels (FORMAT-3)."""
    if not isinstance(value, tuple) or not all(isinstance(item, tuple) for item in value):
        _refuse_sequence(instance, attribute, "a tuple of tuples", value)


def is_optional_tuple_of_tuples(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """attrs validator: the field is None or a tuple of tuples (FORMAT-3)."""
    if value is not None:
        is_tuple_of_tuples(instance, attribute, value)
