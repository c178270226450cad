import os

import pytest
from hypothesis import settings

# CI runs the same examples every time; locally, NOUGHTS_HYPOTHESIS=dev explores more.
settings.register_profile("ci", max_examples=100, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("NOUGHTS_HYPOTHESIS", "ci"))


@pytest.fixture(autouse=True)
def _ctrl_c_raises_keyboard_interrupt():
    """Ctrl-C raises KeyboardInterrupt in every test, also when the test run itself was
    started with SIGINT ignored (as a shell does for a background job): the tests that
    send SIGINT check noughts' handling of it, not the parent shell's."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
