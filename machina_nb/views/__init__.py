"""Notebook views: ipywidgets + bokeh over the rules core; no rule logic here."""
