"""American Sniff as a PettingZoo AEC environment, and a one-seat Gymnasium wrapper.

Needs the ``pettingzoo`` extra (``pip install 'sniff-rules[pettingzoo]'``).
Importing this package registers :func:`env` as ``sniff_rules/american_sniff_v1``
with PettingZoo's registry, and :class:`SingleAgentEnv` as ``sniff_rules/AmericanSniff-v1``
with Gymnasium's. :mod:`~sniff_rules.adapters.pettingzoo.environment` is the
environment, :mod:`~sniff_rules.adapters.pettingzoo.observation` what its agents
observe, :mod:`~sniff_rules.adapters.pettingzoo.single_agent` the Gymnasium wrapper.
"""

from sniff_rules.adapters.pettingzoo.environment import (
    ENV_ID,
    ObservationShape,
    agent_name,
    env,
    observation_of,
    raw_env,
)
from sniff_rules.adapters.pettingzoo.single_agent import GYMNASIUM_ID, SingleAgentEnv

__all__ = [
    "ENV_ID",
    "GYMNASIUM_ID",
    "ObservationShape",
    "SingleAgentEnv",
    "agent_name",
    "env",
    "observation_of",
    "raw_env",
]
