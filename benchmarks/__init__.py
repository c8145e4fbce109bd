"""Speed figures for machina_nb, printed by ``python -m benchmarks`` (``make bench``)."""
