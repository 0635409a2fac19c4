"""Evaluation toolkit: blind judgment kits, their scoring, the leak audit and the tell detector.

Evaluators are readers who try to tell real records from pseudonymised ones; these modules
build what they read, score what they answer, and check a pseudonymised corpus mechanically.
"""
