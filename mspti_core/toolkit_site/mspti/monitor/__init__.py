"""The monitors of CANN's msPTI package (one module each, as there), over mspti_core."""
