"""Random API call sequences checked against the reference model (Hypothesis finds and shrinks).

The commands and their rendering as driver scripts are the model's (``conformance.model.commands``);
``explore`` (which needs Hypothesis) searches.
"""
