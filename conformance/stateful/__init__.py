"""Random API call sequences checked against the reference model (Hypothesis finds and shrinks).

``commands`` renders sequences as driver scripts; ``explore`` (which needs Hypothesis) searches.
"""
