"""Helpers shared by several test folders."""
