import os

from hypothesis import settings

# CI runs the same examples every time; locally, NOUGHTS_HYPOTHESIS=dev explores more.
settings.register_profile("ci", max_examples=100, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("NOUGHTS_HYPOTHESIS", "ci"))
