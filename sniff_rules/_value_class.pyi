# mypy and mypyc read value_class as attr.s: mypy then types the class as a frozen
# attrs class, and mypyc compiles it as a native class (attr.s is one of the
# decorators it accepts on one). At run time it is sniff_rules._fast.frozen_value.
from attr import s as value_class

__all__ = ["value_class"]
