"""The symbolic world model: rule families learned from transitions, written out as dynamics.py and verified
against them (the Simulator's answerer). Never imports `planning`."""
