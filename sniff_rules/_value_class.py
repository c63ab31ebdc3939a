"""The run-time side of ``value_class``; ``_value_class.pyi`` says what type checkers and mypyc see."""

from sniff_rules._fast import frozen_value as value_class

__all__ = ["value_class"]
