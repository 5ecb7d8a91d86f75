"""pytest collects the benchmarks for their doctests; the OpenSpiel match needs open-spiel, not a dependency."""

collect_ignore = ["vs_openspiel.py"]
