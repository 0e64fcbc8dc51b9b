"""The deadline a dictionary load keeps: the budget of the solve it is loaded for.

Kinds load their dictionary deep inside their own code (``lexicon_for(spec)``, in a dozen places)
without the run's budget at hand. Rather than thread the budget through each, the API makes it
known to every load for the length of one solve (:func:`loading_within`); a user's word list big
enough to take long then checks the budget between the steps of reading it (:func:`checker`), and
a load the deadline overtakes ends the solve with :class:`LoadTimeout`, which the API turns into
status ``unknown`` and a message naming the file.

>>> from cpwords.engines.budget import Budget
>>> with loading_within(Budget(0)):
...     checker("the word list big.txt")()
Traceback (most recent call last):
...
cpwords.lexicon.deadline.LoadTimeout: time_limit
>>> checker("the word list big.txt")()  # outside a solve: no deadline
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from cpwords.engines.budget import Budget, SearchTimeout

_BUDGET: ContextVar[Budget | None] = ContextVar("cpwords_loading_budget", default=None)


class LoadTimeout(SearchTimeout):
    """The solve's time limit (or a stop request) came while a dictionary was being loaded.

    ``args[0]`` is the budget's reason (``time_limit``, ``interrupted``), as for every
    :class:`SearchTimeout`; :attr:`message` is the sentence for the result."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(reason)
        self.message = message


@contextmanager
def loading_within(budget: Budget) -> Iterator[None]:
    """While inside, dictionary loads (in this thread or task) keep ``budget``'s deadline."""
    token = _BUDGET.set(budget)
    try:
        yield
    finally:
        _BUDGET.reset(token)


def _never() -> None:
    return None


def checker(what: str) -> Callable[[], None]:
    """A check to call between the steps of loading ``what`` (``the word list FILE``): raises
    :class:`LoadTimeout` once the current solve's budget is spent; does nothing outside a solve."""
    budget = _BUDGET.get()
    if budget is None:
        return _never

    def check() -> None:
        if budget.expired():
            reason = budget.reason or "time_limit"
            if reason == "time_limit":
                message = (f"the time limit ran out while loading {what}; nothing was searched (give it a "
                           "longer time limit once: a big list, once loaded, is kept in the cache)")
            else:
                message = f"stopped ({reason}) while loading {what}; nothing was searched"
            raise LoadTimeout(reason, message)

    return check
