"""Where files live and how projects are keyed: ``paths`` (the data dir, git root, current
project, with ``pathlib``), ``keys`` (Claude Code's project key) and ``lean`` (the same
resolution with ``os.path`` alone, for the hooks). Empty on purpose: a hook importing
``kenning.places.keys`` or ``kenning.places.lean`` loads nothing else."""
