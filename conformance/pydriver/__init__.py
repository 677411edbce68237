"""Scenario drivers written in Python, for the clauses of a Python msPTI package (PY-*).

Each module is a program (``python -m conformance.pydriver.<name>``) run in a fresh process like
the C workloads: it imports the package under test (``$MSPTI_CONFORMANCE_PY_PACKAGE``), drives the
runtime through the C driver loaded as a library (so its ground truth goes to the same log) and
logs every package call and every object the package hands to a callback (``runtime.py``).
"""
