import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src")
if SRC not in sys.path:
    sys.path.insert(0, SRC)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import tilescope.compiler  # noqa: E402

# Every compile in the tests verifies its IR after inference and after every pass.
tilescope.compiler.VERIFY_STAGES = True

# Trees that tests use as data (e.g. a fake upstream checkout), not test modules.
collect_ignore_glob = ["fixtures/*"]
