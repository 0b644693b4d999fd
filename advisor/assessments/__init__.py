"""Assessments: an inventory in, the rules' result stored, its pages, API and files out."""
