"""The `sim` command line: each command parses its arguments, reports a user's error as one
message and an exit status, and calls the layers below; `textview` draws a battle as text for
terminals.
"""

import os

# numpy's OpenBLAS starts a thread per core when numpy is imported, before any command runs;
# the simulator's arrays are small (a dot of a die's few faces), never a BLAS's work, and a
# batch runs one process per core already. One thread: `sim run` of a short script spent
# 0.06-0.08 CPU s less (0.68 -> 0.60). Set before numpy loads, and only where the user has not.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
