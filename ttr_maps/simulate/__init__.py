"""Simulating many games of bots and reporting what a board does.

runner (play games, locally or on Dask) → records (one JSON line per game) →
summary (summary.json) → report (report.html, with the board heat map) ;
compare (two outputs side by side). output writes the folder.
"""
