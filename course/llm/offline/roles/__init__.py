"""The offline provider's roles in the agentic agent: router, updater and critic (notebook 12).

Introduced in notebook 12.
"""
