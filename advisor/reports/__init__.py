"""Consultant reports: built from a stored assessment by a Celery worker as HTML and a PDF,
with their pages and API."""
